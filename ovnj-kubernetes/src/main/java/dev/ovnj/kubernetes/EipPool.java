package dev.ovnj.kubernetes;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;
import java.util.Optional;

/**
 * A cluster-scoped pool of external addresses ({@code ovnj.dev/v1alpha1}, kind {@code EipPool}):
 * the router whose load balancers its Services get, the external router port whose networks the
 * addresses come from, the switch or group they are attached to as well, which addresses of the
 * port's networks it gives out, to which namespaces, and whether Services get it without naming it.
 * The CRD is {@code deploy/eippool-crd.yaml}; {@link EipPools} decides which pool a Service gets
 * and whether a pool is valid.
 */
@Group(EipPool.GROUP)
@Version(EipPool.VERSION)
@Kind("EipPool")
@Plural("eippools")
@Singular("eippool")
public final class EipPool extends CustomResource<EipPool.Spec, EipPool.Status> {
    private static final long serialVersionUID = 1L;
    /** The API group. */
    public static final String GROUP = "ovnj.dev";
    /** The API version. */
    public static final String VERSION = "v1alpha1";

    /** A pool without spec or status, for Jackson. */
    public EipPool() {
    }

    @Override
    protected Spec initSpec() {
        return null;
    }

    @Override
    protected Status initStatus() {
        return null;
    }

    /**
     * What a pool gives out.
     *
     * @param router the Logical_Router the load balancers of the pool's Services are attached to
     * @param externalPort the Logical_Router_Port whose networks the addresses come from
     * @param logicalSwitch the Logical_Switch the load balancers are attached to as well, if any ({@code switch})
     * @param group the Load_Balancer_Group they are attached through instead, if any
     * @param addresses ranges {@code a-b}, CIDRs or single addresses; absent or empty: the port's whole networks
     * @param namespaces the namespaces whose Services may get the pool; absent or empty: every namespace
     * @param autoAssign whether a Service gets the pool without naming it (default true)
     * @param excludeAddresses ranges, CIDRs or addresses of the pool that are never given out (as Kube-OVN's {@code excludeIps})
     * @param priority among the pools a Service gets without naming one, lower first (as MetalLB's
     *     {@code serviceAllocation.priority}); absent: after every pool with one
     * @param serviceSelector only Services whose labels match get the pool without naming it; absent: every Service
     * @param allowedAttachments the routers, switches and groups the pool's Services may name with
     *     {@code ovnj.dev/router}, {@code switch} and {@code group}; absent: none but the pool's own
     * @param namespaceSelector namespaces whose labels match may use the pool too (as MetalLB's
     *     {@code serviceAllocation.namespaceSelectors}); with {@code namespaces}, either admits a namespace
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Spec(String router, String externalPort,
                       @JsonProperty("switch") String logicalSwitch, String group,
                       List<String> addresses, List<String> namespaces, Boolean autoAssign,
                       List<String> excludeAddresses, Integer priority, LabelSelector serviceSelector,
                       Attachments allowedAttachments, LabelSelector namespaceSelector) {
        /**
         * A pool without exclusions, priority, selector or granted attachments.
         *
         * @param router the router
         * @param externalPort the external port
         * @param logicalSwitch the switch, if any
         * @param group the group, if any
         * @param addresses the address entries
         * @param namespaces the namespaces
         * @param autoAssign whether Services get it without naming it
         */
        public Spec(String router, String externalPort, String logicalSwitch, String group, List<String> addresses,
                    List<String> namespaces, Boolean autoAssign) {
            this(router, externalPort, logicalSwitch, group, addresses, namespaces, autoAssign, null, null, null, null, null);
        }

        /**
         * The excluded entries.
         *
         * @return {@code excludeAddresses}, empty when absent
         */
        public List<String> excludeAddressesOrNone() {
            return excludeAddresses == null ? List.of() : excludeAddresses;
        }

        /**
         * What Services may name.
         *
         * @return {@code allowedAttachments}, nothing when absent
         */
        public Attachments attachmentsOrNone() {
            return allowedAttachments == null ? Attachments.NONE : allowedAttachments;
        }

        /**
         * The namespaces, empty for every one.
         *
         * @return the namespaces listed
         */
        public List<String> namespacesOrAll() {
            return namespaces == null ? List.of() : namespaces;
        }

        /**
         * The address entries, empty for the port's whole networks.
         *
         * @return the entries listed
         */
        public List<String> addressesOrAll() {
            return addresses == null ? List.of() : addresses;
        }

        /**
         * Whether Services get the pool without naming it.
         *
         * @return {@code autoAssign}, true when absent
         */
        public boolean assignsAutomatically() {
            return autoAssign == null || autoAssign;
        }

        /**
         * The switch, if any.
         *
         * @return the switch
         */
        public Optional<String> switchName() {
            return Optional.ofNullable(logicalSwitch).filter(s -> !s.isBlank());
        }

        /**
         * The group, if any.
         *
         * @return the group
         */
        public Optional<String> groupName() {
            return Optional.ofNullable(group).filter(s -> !s.isBlank());
        }
    }

    /**
     * The placements an administrator grants a pool's Services beyond the pool's own router,
     * switch and group (which they may always name).
     *
     * @param routers routers they may name with {@code ovnj.dev/router}
     * @param switches switches they may name with {@code ovnj.dev/switch}
     * @param groups groups they may name with {@code ovnj.dev/group}
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Attachments(List<String> routers, List<String> switches, List<String> groups) {
        /** Nothing granted. */
        public static final Attachments NONE = new Attachments(List.of(), List.of(), List.of());

        /**
         * Null lists as empty ones.
         *
         * @param routers the routers
         * @param switches the switches
         * @param groups the groups
         */
        public Attachments {
            routers = routers == null ? List.of() : List.copyOf(routers);
            switches = switches == null ? List.of() : List.copyOf(switches);
            groups = groups == null ? List.of() : List.copyOf(groups);
        }
    }

    /**
     * What the controller writes.
     *
     * @param allocated how many addresses of the pool are claimed
     * @param free how many addresses of the pool can still be given (at most {@link Long#MAX_VALUE})
     * @param reserved how many addresses of the pool nobody may take (router ports, route next hops, excluded)
     * @param waiting the Services ({@code namespace/name}) waiting for an address of the pool
     * @param conditions {@code Ready} and {@code AddressesKept}
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Status(Long allocated, Long free, Long reserved, List<String> waiting, List<Condition> conditions) {
    }
}
