package dev.ovnj.lb.spec;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What one load balancer should be: its VIPs and backends, where it is attached, and its options.
 * The engine keeps one OVN {@code Load_Balancer} row per protocol, named
 * {@code <name>-<protocol>}. Attachment is either direct (to the named routers and switches) or
 * through a {@code Load_Balancer_Group} named {@code group}, which is then attached to those
 * routers and switches instead (N+M references rather than N x M).
 *
 * @param name the spec's name, unique within its owner
 * @param vips the VIPs
 * @param routers Logical_Router names to attach to
 * @param switches Logical_Switch names to attach to
 * @param group optional Load_Balancer_Group name to attach through
 * @param options load-balancer options
 * @param externalIds extra {@code external_ids} to write (the engine's own {@code ovnj.*} keys win)
 * @param healthCheckSources switch name to the health-check source addresses on it (at most one
 *     IPv4 and one IPv6), used for checked VIPs whose health check names no {@code sourceIp}; for a
 *     switch and family without one the engine chooses the source
 * @param sourceRanges the only client networks (CIDRs, IPv4 and IPv6) allowed to reach the
 *     backends through the VIPs; empty allows every client. Enforced on the routers by
 *     {@code Logical_Router_Policy} rows the engine owns (see the user guide, "Source ranges")
 */
public record LoadBalancerSpec(String name, List<VipSpec> vips, Set<String> routers, Set<String> switches,
                               Optional<String> group, LbOptions options, Map<String, String> externalIds,
                               Map<String, List<String>> healthCheckSources, List<String> sourceRanges) {

    /**
     * Copies the collections. Values are not checked here: {@link Builder#build()} checks them, and
     * the engine checks every spec it is given ({@link SpecValidator}).
     *
     * @param externalIds extra {@code external_ids} to write (the engine's own {@code ovnj.*} keys win)
     * @param group optional Load_Balancer_Group name to attach through
     * @param name the spec's name, unique within its owner
     * @param options load-balancer options
     * @param routers Logical_Router names to attach to
     * @param switches Logical_Switch names to attach to
     * @param vips the VIPs
     * @param healthCheckSources switch name to health-check source addresses
     * @param sourceRanges the client networks allowed, empty for all
     */
    public LoadBalancerSpec {
        Objects.requireNonNull(name, "name");
        vips = List.copyOf(vips);
        routers = Set.copyOf(routers);
        switches = Set.copyOf(switches);
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(options, "options");
        externalIds = Map.copyOf(externalIds);
        Map<String, List<String>> sources = new java.util.LinkedHashMap<>();
        healthCheckSources.forEach((k, v) -> sources.put(k, List.copyOf(v)));
        healthCheckSources = java.util.Collections.unmodifiableMap(sources);
        sourceRanges = List.copyOf(sourceRanges);
    }

    /**
     * A spec without source ranges.
     *
     * @param name the spec's name
     * @param vips the VIPs
     * @param routers Logical_Router names
     * @param switches Logical_Switch names
     * @param group optional Load_Balancer_Group name
     * @param options load-balancer options
     * @param externalIds extra external_ids
     * @param healthCheckSources switch name to health-check source addresses
     */
    public LoadBalancerSpec(String name, List<VipSpec> vips, Set<String> routers, Set<String> switches,
                            Optional<String> group, LbOptions options, Map<String, String> externalIds,
                            Map<String, List<String>> healthCheckSources) {
        this(name, vips, routers, switches, group, options, externalIds, healthCheckSources, List.of());
    }

    /**
     * A spec without health-check sources.
     *
     * @param name the spec's name
     * @param vips the VIPs
     * @param routers Logical_Router names
     * @param switches Logical_Switch names
     * @param group optional Load_Balancer_Group name
     * @param options load-balancer options
     * @param externalIds extra external_ids
     */
    public LoadBalancerSpec(String name, List<VipSpec> vips, Set<String> routers, Set<String> switches,
                            Optional<String> group, LbOptions options, Map<String, String> externalIds) {
        this(name, vips, routers, switches, group, options, externalIds, Map.of(), List.of());
    }

    /**
     * Starts a spec.
     *
     * @param name the spec's name
     * @return a builder
     */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /**
     * The protocols this spec uses, in first-use order: one Load_Balancer row each.
     *
     * @return the protocols this spec uses, in first-use order: one Load_Balancer row each
     */
    public Set<Protocol> protocols() {
        Set<Protocol> out = new LinkedHashSet<>();
        vips.forEach(v -> out.add(v.protocol()));
        return out;
    }

    /** Builds a {@link LoadBalancerSpec}. */
    public static final class Builder {
        private final String name;
        private final List<VipSpec> vips = new ArrayList<>();
        private final Set<String> routers = new LinkedHashSet<>();
        private final Set<String> switches = new LinkedHashSet<>();
        private String group;
        private LbOptions options = LbOptions.DEFAULTS;
        private Map<String, String> externalIds = Map.of();
        private Map<String, List<String>> healthCheckSources = Map.of();
        private List<String> sourceRanges = List.of();

        private Builder(String name) {
            this.name = name;
        }

        /**
         * Adds a VIP.
         *
         * @param vip the VIP
         * @return this builder
         */
        public Builder vip(VipSpec vip) {
            vips.add(vip);
            return this;
        }

        /**
         * Adds a TCP VIP.
         *
         * @param vip the VIP
         * @param backends its backends
         * @return this builder
         */
        public Builder tcp(String vip, String... backends) {
            return vip(VipSpec.tcp(vip, backends));
        }

        /**
         * Adds a UDP VIP.
         *
         * @param vip the VIP
         * @param backends its backends
         * @return this builder
         */
        public Builder udp(String vip, String... backends) {
            return vip(VipSpec.udp(vip, backends));
        }

        /**
         * Adds a TCP VIP.
         *
         * @param vip the VIP, with a port
         * @param backends its backends, with ports
         * @return this builder
         */
        public Builder tcp(Endpoint vip, Endpoint... backends) {
            return vip(VipSpec.of(Protocol.TCP, vip, List.of(backends)));
        }

        /**
         * Adds a UDP VIP.
         *
         * @param vip the VIP, with a port
         * @param backends its backends, with ports
         * @return this builder
         */
        public Builder udp(Endpoint vip, Endpoint... backends) {
            return vip(VipSpec.of(Protocol.UDP, vip, List.of(backends)));
        }

        /**
         * Attaches to routers.
         *
         * @param names Logical_Router names
         * @return this builder
         */
        public Builder routers(String... names) {
            routers.addAll(List.of(names));
            return this;
        }

        /**
         * Attaches to switches.
         *
         * @param names Logical_Switch names
         * @return this builder
         */
        public Builder switches(String... names) {
            switches.addAll(List.of(names));
            return this;
        }

        /**
         * Attaches through a load balancer group (which is attached to the routers and switches).
         *
         * @param name Load_Balancer_Group name
         * @return this builder
         */
        public Builder group(String name) {
            this.group = name;
            return this;
        }

        /**
         * Sets the options.
         *
         * @param opts the options
         * @return this builder
         */
        public Builder options(LbOptions opts) {
            this.options = opts;
            return this;
        }

        /**
         * Sets extra external_ids.
         *
         * @param ids key-value pairs
         * @return this builder
         */
        public Builder externalIds(Map<String, String> ids) {
            this.externalIds = ids;
            return this;
        }

        /**
         * Sets the health-check source addresses per switch.
         *
         * @param sources switch name to its source addresses (one IPv4, one IPv6 at most)
         * @return this builder
         */
        public Builder healthCheckSources(Map<String, List<String>> sources) {
            this.healthCheckSources = sources;
            return this;
        }

        /**
         * Restricts the clients that reach the backends through the VIPs to these networks; the
         * default, none, allows every client.
         *
         * @param cidrs networks such as {@code 198.51.100.0/24} or {@code 2001:db8::/48}
         * @return this builder
         */
        public Builder sourceRanges(List<String> cidrs) {
            this.sourceRanges = cidrs;
            return this;
        }

        /**
         * Builds the spec after checking every value that needs no database: addresses and ports
         * of VIPs and backends, address families, health-check and option ranges, names. The
         * engine repeats these checks (for specs made without the builder) and adds those against
         * the database (switch subnets, VIPs claimed by other owners).
         *
         * @return the spec
         * @throws SpecException listing every problem, each naming its field (e.g.
         *     {@code spec web, vips[0].vip: "web.example.com:80": "web.example.com" is not an IPv4 address})
         */
        public LoadBalancerSpec build() {
            LoadBalancerSpec spec = buildUnchecked();
            List<SpecError> errors = SpecValidator.validate(spec);
            if (!errors.isEmpty()) {
                throw new SpecException(errors);
            }
            return spec;
        }

        /**
         * Builds the spec without checking its values, for a caller that hands a whole batch to
         * the engine and wants each invalid spec reported in its {@code SpecStatus} (state
         * {@code INVALID}, the same messages {@link #build()} gives) while the valid ones are
         * applied: a controller translating objects it does not control, or a file reader that
         * places each problem on its line. Anything else should call {@link #build()}.
         *
         * @return the spec, possibly invalid
         */
        public LoadBalancerSpec buildUnchecked() {
            return new LoadBalancerSpec(name, vips, routers, switches, Optional.ofNullable(group), options, externalIds,
                    healthCheckSources, sourceRanges);
        }
    }
}
