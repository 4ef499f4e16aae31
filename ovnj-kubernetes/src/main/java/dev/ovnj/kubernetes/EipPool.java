package dev.ovnj.kubernetes;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.kubernetes.api.model.Condition;
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
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Spec(String router, String externalPort,
                       @JsonProperty("switch") String logicalSwitch, String group,
                       List<String> addresses, List<String> namespaces, Boolean autoAssign) {
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
     * What the controller writes.
     *
     * @param allocated how many addresses of the pool are claimed
     * @param free how many addresses of the pool can still be given (at most {@link Long#MAX_VALUE})
     * @param conditions {@code Invalid} and {@code AddressesKept}
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Status(Long allocated, Long free, List<Condition> conditions) {
    }
}
