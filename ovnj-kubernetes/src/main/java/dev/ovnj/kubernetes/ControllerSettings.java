package dev.ovnj.kubernetes;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Where the controller puts load balancers and how it runs; every field has a default. The router
 * and external port (the command line's {@code --router} and {@code --external-port}) are optional:
 * without them only {@link EipPool}s give addresses (a pools-only deployment); with them they serve
 * the namespaces of {@link #routerNamespaces()} only. Which attachment a Service may name is the
 * administrator's grant ({@link Tenancy}).
 *
 * @param owner the engine owner of every load balancer this controller writes (default {@code ovnj-kubernetes})
 * @param router the Logical_Router the load balancers are attached to, if the command line names one
 * @param logicalSwitch the Logical_Switch they are attached to, if any
 * @param group the Load_Balancer_Group they are attached through instead, if any
 * @param externalPort the Logical_Router_Port whose networks the EIPs are taken from, with the router
 * @param loadBalancerClass when present, only Services with this {@code spec.loadBalancerClass} are served;
 *     when absent, only Services without one
 * @param namespaces the namespaces to watch; empty for all
 * @param leaseNamespace the namespace of the leader-election Lease; empty: no leader election
 * @param leaseName the Lease's name
 * @param serverSideApply whether the primary resource (finalizer, status) is patched with
 *     server-side apply; off, JSON (merge) patches are used, which every API server and fabric8's
 *     mock server accept
 * @param retryAfter how soon a Service whose load balancer is not applied yet is looked at again
 * @param routerNamespaces the namespaces whose Services the router and external port serve when no
 *     pool does; {@value #ALL_NAMESPACES} for every namespace, empty for none
 * @param excludeAddresses ranges {@code a-b}, CIDRs or addresses never given out, on any port
 */
public record ControllerSettings(String owner, Optional<String> router, Optional<String> logicalSwitch, Optional<String> group,
                                 Optional<String> externalPort, Optional<String> loadBalancerClass, Set<String> namespaces,
                                 Optional<String> leaseNamespace, String leaseName, boolean serverSideApply,
                                 Duration retryAfter, Set<String> routerNamespaces, List<String> excludeAddresses) {
    /** The default owner. */
    public static final String DEFAULT_OWNER = "ovnj-kubernetes";
    /** The default Lease name. */
    public static final String DEFAULT_LEASE_NAME = "ovnj-kubernetes";
    /** The finalizer the controller puts on the Services it serves. */
    public static final String FINALIZER = "ovnj.dev/load-balancer";
    /** In {@link #routerNamespaces()}: every namespace. */
    public static final String ALL_NAMESPACES = "*";

    /**
     * Checks the fields.
     *
     * @param owner the engine owner
     * @param router the router
     * @param logicalSwitch the switch
     * @param group the group
     * @param externalPort the external port
     * @param loadBalancerClass the class served
     * @param namespaces the namespaces watched
     * @param leaseNamespace the Lease's namespace
     * @param leaseName the Lease's name
     * @param serverSideApply whether to patch with server-side apply
     * @param retryAfter the retry delay
     * @param routerNamespaces the namespaces the router serves
     * @param excludeAddresses the addresses never given out
     */
    public ControllerSettings {
        requireText(owner, "owner");
        requireText(leaseName, "leaseName");
        Objects.requireNonNull(router, "router");
        Objects.requireNonNull(externalPort, "externalPort");
        router.ifPresent(r -> requireText(r, "router"));
        externalPort.ifPresent(p -> requireText(p, "externalPort"));
        if (router.isPresent() != externalPort.isPresent()) {
            throw new IllegalArgumentException("router and externalPort go together: give both, or neither for pools only");
        }
        Objects.requireNonNull(logicalSwitch, "logicalSwitch");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(loadBalancerClass, "loadBalancerClass");
        Objects.requireNonNull(leaseNamespace, "leaseNamespace");
        namespaces = Set.copyOf(namespaces);
        routerNamespaces = Set.copyOf(routerNamespaces);
        excludeAddresses = List.copyOf(excludeAddresses);
        for (String entry : excludeAddresses) {
            PoolAddresses.parse(entry);
        }
        if (retryAfter.isNegative() || retryAfter.isZero()) {
            throw new IllegalArgumentException("retryAfter must be positive, got " + retryAfter);
        }
    }

    /**
     * Settings with the defaults and a router serving every namespace no pool serves (as before
     * pools-only deployments existed: code that names the router says so): owner
     * {@code ovnj-kubernetes}, every namespace watched, no leader election, server-side apply on,
     * retry after 10 s, nothing excluded.
     *
     * @param router the router
     * @param externalPort the external port
     * @return the settings
     */
    public static ControllerSettings of(String router, String externalPort) {
        return new ControllerSettings(DEFAULT_OWNER, Optional.of(router), Optional.empty(), Optional.empty(), Optional.of(externalPort),
                Optional.empty(), Set.of(), Optional.empty(), DEFAULT_LEASE_NAME, true, Duration.ofSeconds(10),
                Set.of(ALL_NAMESPACES), List.of());
    }

    /**
     * Settings with the defaults and no router of their own: only {@link EipPool}s give addresses.
     *
     * @return the settings
     */
    public static ControllerSettings poolsOnly() {
        return new ControllerSettings(DEFAULT_OWNER, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Set.of(), Optional.empty(), DEFAULT_LEASE_NAME, true, Duration.ofSeconds(10), Set.of(), List.of());
    }

    /**
     * Whether the router and external port serve a namespace's Services (when no pool does).
     *
     * @param namespace the namespace
     * @return true when a router is configured and the namespace is among {@link #routerNamespaces()}
     */
    public boolean routerServes(String namespace) {
        return router.isPresent() && (routerNamespaces.contains(ALL_NAMESPACES) || routerNamespaces.contains(namespace));
    }

    /**
     * The same settings with another owner.
     *
     * @param other the owner
     * @return the settings
     */
    public ControllerSettings withOwner(String other) {
        return new ControllerSettings(other, router, logicalSwitch, group, externalPort, loadBalancerClass, namespaces,
                leaseNamespace, leaseName, serverSideApply, retryAfter, routerNamespaces, excludeAddresses);
    }

    /**
     * The same settings attached to a switch.
     *
     * @param name the switch
     * @return the settings
     */
    public ControllerSettings withSwitch(String name) {
        return new ControllerSettings(owner, router, Optional.of(name), group, externalPort, loadBalancerClass, namespaces,
                leaseNamespace, leaseName, serverSideApply, retryAfter, routerNamespaces, excludeAddresses);
    }

    /**
     * The same settings attached through a group.
     *
     * @param name the group
     * @return the settings
     */
    public ControllerSettings withGroup(String name) {
        return new ControllerSettings(owner, router, logicalSwitch, Optional.of(name), externalPort, loadBalancerClass,
                namespaces, leaseNamespace, leaseName, serverSideApply, retryAfter, routerNamespaces, excludeAddresses);
    }

    /**
     * The same settings serving only one load balancer class.
     *
     * @param name the class, e.g. {@code ovnj.dev/ovn}
     * @return the settings
     */
    public ControllerSettings withLoadBalancerClass(String name) {
        return new ControllerSettings(owner, router, logicalSwitch, group, externalPort, Optional.of(name), namespaces,
                leaseNamespace, leaseName, serverSideApply, retryAfter, routerNamespaces, excludeAddresses);
    }

    /**
     * The same settings watching only some namespaces.
     *
     * @param names the namespaces; empty for all
     * @return the settings
     */
    public ControllerSettings withNamespaces(Set<String> names) {
        return new ControllerSettings(owner, router, logicalSwitch, group, externalPort, loadBalancerClass, names,
                leaseNamespace, leaseName, serverSideApply, retryAfter, routerNamespaces, excludeAddresses);
    }

    /**
     * The same settings with the router serving only some namespaces.
     *
     * @param names the namespaces; {@value #ALL_NAMESPACES} for every one, empty for none
     * @return the settings
     */
    public ControllerSettings withRouterNamespaces(Set<String> names) {
        return new ControllerSettings(owner, router, logicalSwitch, group, externalPort, loadBalancerClass, namespaces,
                leaseNamespace, leaseName, serverSideApply, retryAfter, names, excludeAddresses);
    }

    /**
     * The same settings with addresses nobody gets.
     *
     * @param entries ranges {@code a-b}, CIDRs or addresses
     * @return the settings
     * @throws IllegalArgumentException naming an entry that does not parse
     */
    public ControllerSettings withExcludeAddresses(List<String> entries) {
        return new ControllerSettings(owner, router, logicalSwitch, group, externalPort, loadBalancerClass, namespaces,
                leaseNamespace, leaseName, serverSideApply, retryAfter, routerNamespaces, entries);
    }

    /**
     * The same settings with leader election on a Lease.
     *
     * @param namespace the Lease's namespace
     * @param name the Lease's name
     * @return the settings
     */
    public ControllerSettings withLease(String namespace, String name) {
        return new ControllerSettings(owner, router, logicalSwitch, group, externalPort, loadBalancerClass, namespaces,
                Optional.of(namespace), name, serverSideApply, retryAfter, routerNamespaces, excludeAddresses);
    }

    /**
     * The same settings for another router, attachment and external port: an {@link EipPool}'s.
     *
     * @param otherRouter the router
     * @param otherSwitch the switch, if any
     * @param otherGroup the group, if any
     * @param otherPort the external port
     * @return the settings
     */
    public ControllerSettings at(String otherRouter, Optional<String> otherSwitch, Optional<String> otherGroup, String otherPort) {
        return new ControllerSettings(owner, Optional.of(otherRouter), otherSwitch, otherGroup, Optional.of(otherPort), loadBalancerClass,
                namespaces, leaseNamespace, leaseName, serverSideApply, retryAfter, routerNamespaces, excludeAddresses);
    }

    /**
     * The same settings with server-side apply on or off.
     *
     * @param on whether to patch the Service with server-side apply
     * @return the settings
     */
    public ControllerSettings withServerSideApply(boolean on) {
        return new ControllerSettings(owner, router, logicalSwitch, group, externalPort, loadBalancerClass, namespaces,
                leaseNamespace, leaseName, on, retryAfter, routerNamespaces, excludeAddresses);
    }

    /**
     * The same settings with another retry delay.
     *
     * @param delay how soon an unapplied Service is looked at again
     * @return the settings
     */
    public ControllerSettings withRetryAfter(Duration delay) {
        return new ControllerSettings(owner, router, logicalSwitch, group, externalPort, loadBalancerClass, namespaces,
                leaseNamespace, leaseName, serverSideApply, delay, routerNamespaces, excludeAddresses);
    }

    private static void requireText(String value, String field) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(field + " must not be empty");
        }
    }
}
