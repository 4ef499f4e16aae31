package dev.ovnj.lb.diagnosis;

import dev.ovnj.lb.spec.Endpoint;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.Protocol;
import dev.ovnj.lb.spec.VipSpec;
import dev.ovnj.nb.model.LoadBalancer;
import dev.ovnj.ovsdb.cache.RowCache;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Diagnoses load balancers across the Northbound and (optionally) Southbound databases and reports
 * root causes only, as {@link Finding}s with stable codes ({@link FindingCode}). Read-only: it
 * writes nothing anywhere.
 *
 * <p>What is checked: with {@link Builder#specs desired specs}, those specs (their rows are
 * {@code <name>-<protocol>}, found by owner when one is given); without, every load balancer ovnj
 * owns (of {@link Builder#owner the owner}, or of every owner). {@link Builder#loadBalancer} and
 * {@link Builder#vip} narrow that down; {@code loadBalancer} may also name a Load_Balancer row that
 * ovnj does not own (and, when the desired specs have no spec of that name, is looked up there).
 *
 * <pre>{@code
 * DiagnosisReport report = Diagnosis.builder().owner("k8s").build()
 *         .run(NorthboundFacts.read(nb.cache()), Optional.of(SouthboundFacts.read(sb.cache())));
 * report.findings().forEach(f -> System.out.println(f));
 * }</pre>
 *
 * <p>Root cause only: a load balancer that is missing is not also reported as detached; one that
 * is attached nowhere gets no further checks; flows are looked for only when northd is in sync
 * for the load balancer; {@code ovn-trace} runs only when nothing else is wrong with it; a router
 * without a gateway is one finding naming every load balancer on it. Attachment is judged alike
 * with and without desired specs (a row on no router and no switch is {@code not-attached}), so a
 * database that matches the specs gives the same findings either way; the specs add only where
 * the rows should be.
 */
public final class Diagnosis {
    private final Optional<String> owner;
    private final Optional<List<LoadBalancerSpec>> specs;
    private final Optional<String> loadBalancer;
    private final Optional<String> vip;
    private final Optional<Tracer> tracer;

    private Diagnosis(Builder b) {
        this.owner = Optional.ofNullable(b.owner);
        this.specs = Optional.ofNullable(b.specs);
        this.loadBalancer = Optional.ofNullable(b.loadBalancer);
        this.vip = Optional.ofNullable(b.vip);
        this.tracer = Optional.ofNullable(b.tracer);
    }

    /**
     * Starts configuring a diagnosis.
     *
     * @return a builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Diagnoses from clients' caches (the Southbound one may be null). The caches must monitor
     * {@link NorthboundFacts#monitorRequest()} and {@link SouthboundFacts#monitorRequest()}.
     *
     * @param northbound the Northbound cache
     * @param southbound the Southbound cache, or null to skip the Southbound checks
     * @return the report
     */
    public DiagnosisReport run(RowCache northbound, RowCache southbound) {
        return run(NorthboundFacts.read(northbound),
                southbound == null ? Optional.empty() : Optional.of(SouthboundFacts.read(southbound)));
    }

    /**
     * Diagnoses on an executor of the caller's choosing: reading the caches and (with a tracer)
     * running {@code ovn-trace} take time, which must not be spent on an event-loop thread.
     *
     * @param northbound the Northbound cache
     * @param southbound the Southbound cache, or null to skip the Southbound checks
     * @param executor where to run
     * @return the report, or the failure (e.g. a cache that does not hold a needed table)
     */
    public CompletableFuture<DiagnosisReport> runAsync(RowCache northbound, RowCache southbound, Executor executor) {
        Objects.requireNonNull(executor, "executor");
        return CompletableFuture.supplyAsync(() -> run(northbound, southbound), executor);
    }

    /**
     * Diagnoses from facts already read.
     *
     * @param nb the Northbound facts
     * @param sb the Southbound facts, or empty to skip (and list as skipped) the Southbound checks
     * @return the report
     */
    public DiagnosisReport run(NorthboundFacts nb, Optional<SouthboundFacts> sb) {
        Objects.requireNonNull(nb, "nb");
        Objects.requireNonNull(sb, "sb");
        List<SkippedCheck> skipped = new ArrayList<>();
        Optional<Tracer> usableTracer = tracer;
        if (sb.isEmpty()) {
            for (FindingCode c : FindingCode.values()) {
                if (c.needsSouthbound()) {
                    skipped.add(new SkippedCheck(c, "needs the Southbound database (--sb)"));
                }
            }
            usableTracer = Optional.empty();
        } else if (tracer.isEmpty()) {
            skipped.add(new SkippedCheck(FindingCode.TRACE_MISMATCH, "not requested (--trace)"));
        } else {
            Optional<String> why = tracer.get().unavailable();
            if (why.isPresent()) {
                skipped.add(new SkippedCheck(FindingCode.TRACE_MISMATCH, why.get()));
                usableTracer = Optional.empty();
            }
        }
        List<List<Finding>> bySubject = new ArrayList<>();
        Map<UUID, GatewaylessRouter> gatewayless = new LinkedHashMap<>();
        Map<UUID, Integer> firstOn = new HashMap<>();
        Map<UUID, String> checkedRows = new LinkedHashMap<>();
        for (Subject s : subjects(nb)) {
            s.rows().forEach(r -> r.uuid().ifPresent(u -> checkedRows.put(u, s.name())));
            LoadBalancerCheck check = new LoadBalancerCheck(s, nb, sb, usableTracer, vip, gatewayless);
            bySubject.add(new ArrayList<>(check.run()));
            skipped.addAll(check.skipped());
            gatewayless.keySet().forEach(r -> firstOn.putIfAbsent(r, bySubject.size() - 1));
        }
        // A router's finding goes with the first load balancer found on it.
        gatewayless.forEach((r, g) -> bySubject.get(firstOn.get(r)).add(g.finding()));
        List<Finding> findings = new ArrayList<>();
        bySubject.forEach(findings::addAll);
        if (loadBalancer.isEmpty() && vip.isEmpty()) {
            // Advice is about the set of load balancers, so only a run over all of them gives it.
            findings.addAll(new ScaleAdvice(nb, checkedRows).findings());
        }
        return new DiagnosisReport(findings, bySubject.size(), skipped);
    }

    private List<Subject> subjects(NorthboundFacts nb) {
        List<Subject> out = new ArrayList<>();
        if (specs.isPresent()) {
            for (LoadBalancerSpec spec : specs.get()) {
                if (loadBalancer.isPresent() && !loadBalancer.get().equals(spec.name()) || !wantsVip(spec)) {
                    continue;
                }
                List<Subject.RowRef> rows = new ArrayList<>();
                for (Protocol p : spec.protocols()) {
                    rows.add(findRow(nb, spec.name() + "-" + p.wireValue(), p.wireValue()));
                }
                out.add(new Subject(spec.name(), Optional.of(spec), rows));
            }
            // A name the desired state does not have is looked up in the database instead.
            if (!out.isEmpty() || loadBalancer.isEmpty()) {
                return out;
            }
        }
        Map<String, List<Subject.RowRef>> bySpec = new LinkedHashMap<>();
        for (Map.Entry<UUID, LoadBalancer> e : nb.balancers().entrySet()) {
            LoadBalancer lb = e.getValue();
            UUID uuid = e.getKey();
            Optional<String> o = NorthboundFacts.owner(lb);
            if (o.isEmpty() || owner.isPresent() && !owner.get().equals(o.get())) {
                continue;
            }
            String spec = NorthboundFacts.specName(lb);
            if (loadBalancer.isPresent() && !loadBalancer.get().equals(spec) && !loadBalancer.get().equals(lb.name())) {
                continue;
            }
            bySpec.computeIfAbsent(o.get() + "\u0000" + spec, k -> new ArrayList<>())
                    .add(new Subject.RowRef(lb.name(), NorthboundFacts.protocol(lb), Optional.of(uuid), ""));
        }
        if (bySpec.isEmpty() && loadBalancer.isPresent()) {
            // An operator may ask about any load balancer by its row name, owned or not.
            List<Subject.RowRef> rows = new ArrayList<>();
            for (UUID u : nb.balancersNamed(loadBalancer.get())) {
                rows.add(new Subject.RowRef(loadBalancer.get(), NorthboundFacts.protocol(nb.balancer(u)), Optional.of(u), ""));
            }
            if (rows.isEmpty()) {
                rows.add(new Subject.RowRef(loadBalancer.get(), "", Optional.empty(),
                        owner.map(o -> "no row of owner " + o + " and no row of that name").orElse("no row of that name")));
            }
            bySpec.put(loadBalancer.get(), rows);
        }
        bySpec.forEach((key, rows) -> {
            String spec = key.substring(key.indexOf('\u0000') + 1);
            Subject s = new Subject(spec, Optional.empty(), rows);
            if (vip.isEmpty() || rows.stream().anyMatch(r -> r.uuid().isPresent() && nb.balancer(r.uuid().get()).vips().keySet()
                    .stream().anyMatch(v -> Endpoints.canonical(v).equals(vip.get())))) {
                out.add(s);
            }
        });
        return out;
    }

    private boolean wantsVip(LoadBalancerSpec spec) {
        return vip.isEmpty() || spec.vips().stream().map(VipSpec::vip).map(Endpoints::canonical).anyMatch(vip.get()::equals);
    }

    private Subject.RowRef findRow(NorthboundFacts nb, String rowName, String protocol) {
        String otherOwner = null;
        for (UUID u : nb.balancersNamed(rowName)) {
            Optional<String> o = NorthboundFacts.owner(nb.balancer(u));
            if (owner.isEmpty() || o.isPresent() && o.get().equals(owner.get())) {
                return new Subject.RowRef(rowName, protocol, Optional.of(u), "");
            }
            otherOwner = o.orElse("(none)");
        }
        return new Subject.RowRef(rowName, protocol, Optional.empty(),
                otherOwner == null ? "" : "a row of that name exists but its owner is " + otherOwner);
    }

    /** Configures a {@link Diagnosis}; every setting is optional. */
    public static final class Builder {
        private String owner;
        private List<LoadBalancerSpec> specs;
        private String loadBalancer;
        private String vip;
        private Tracer tracer;

        private Builder() {
        }

        /**
         * Checks only this owner's load balancers (default: every owner's), and finds the rows of
         * desired specs by this owner.
         *
         * @param name the owner
         * @return this builder
         */
        public Builder owner(String name) {
            this.owner = Objects.requireNonNull(name, "owner");
            return this;
        }

        /**
         * Checks these desired specs (e.g. a desired-state file's) rather than what the database
         * holds, so missing and detached load balancers are found.
         *
         * @param desired the specs
         * @return this builder
         */
        public Builder specs(List<LoadBalancerSpec> desired) {
            this.specs = List.copyOf(desired);
            return this;
        }

        /**
         * Checks only the load balancer of this spec name (or Load_Balancer row name).
         *
         * @param name the name
         * @return this builder
         */
        public Builder loadBalancer(String name) {
            this.loadBalancer = Objects.requireNonNull(name, "loadBalancer");
            return this;
        }

        /**
         * Checks only load balancers serving this VIP, and only this VIP of them.
         *
         * @param ipPort the VIP, {@code IP:PORT} or {@code [IPv6]:PORT}
         * @return this builder
         * @throws IllegalArgumentException when it is not a valid VIP
         */
        public Builder vip(String ipPort) {
            this.vip = Endpoint.parse(ipPort).toString();
            return this;
        }

        /**
         * Also traces a packet from the gateway port to each router-attached VIP
         * ({@code trace-mismatch}); needs the Southbound database.
         *
         * @param t the tracer, e.g. {@link OvnTrace#of(String)}
         * @return this builder
         */
        public Builder tracer(Tracer t) {
            this.tracer = Objects.requireNonNull(t, "tracer");
            return this;
        }

        /**
         * Builds the diagnosis (reusable: each {@code run} reads anew).
         *
         * @return the diagnosis
         */
        public Diagnosis build() {
            return new Diagnosis(this);
        }
    }
}
