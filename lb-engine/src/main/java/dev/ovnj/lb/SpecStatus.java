package dev.ovnj.lb;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Where one spec stands, for the embedding controller: an immutable snapshot that was true when
 * the engine published it. Read it from any thread; it never blocks.
 *
 * @param owner the owner
 * @param spec the spec's name
 * @param state the state
 * @param reasons why it is not applied, in words (waiting for what, why invalid, the conflict, the server's error)
 * @param warnings problems that do not stop it (an EIP OVN will not answer ARP for, a foreign row serving a VIP it keeps)
 * @param rows UUIDs of its Load_Balancer rows when applied or waiting
 * @param repairs how many times drift on its rows was repaired
 * @param lastRepair latency of the most recent repair, from seeing the drift to the repair committed
 * @param conflicts when {@link State#CONFLICT}: the rows or specs it conflicts with
 * @param writeError when {@link State#FAILED} (or {@link State#APPLYING} while retrying): why the write did not succeed (the server's error, the client's or the engine's)
 * @param generation the version of the desired spec this status is about (it grows with every declaration)
 * @param observedGeneration the version of the desired spec the database was last seen to hold (0: none yet)
 * @param backendHealth for the backends of checked VIPs, what OVN's service monitor says; keyed
 *     {@code IP:PORT} (or {@code [IPv6]:PORT}) for a TCP VIP's backend and {@code IP:PORT/udp} or
 *     {@code IP:PORT/sctp} for the other protocols, so one backend checked over TCP and UDP has an
 *     entry for each (see {@link BackendHealthView#key}); empty without health checks,
 *     {@link BackendHealth#UNKNOWN} without a Southbound connection
 * @param operatingStatus whether it serves traffic: the worst of {@code vipOperatingStatus}
 *     ({@link OperatingStatus#UNKNOWN} before the engine's first verdict on it, and while it is invalid or removed)
 * @param vipOperatingStatus each VIP's operating status, rolled up from its backends; keyed as
 *     {@link BackendHealthView#key} writes it ({@code 172.16.0.100:80}, {@code 10.96.0.10:53/udp})
 * @param healthCheckSources for each mapped backend of a checked VIP (keyed as {@code backendHealth}),
 *     the address OVN's service monitor probes it from and whether the engine chose it; as of the
 *     engine's last judgement of the spec (empty when invalid or without health checks)
 */
public record SpecStatus(String owner, String spec, State state, List<String> reasons, List<String> warnings,
                         Set<UUID> rows, long repairs, Optional<Duration> lastRepair, List<ConflictingRow> conflicts,
                         Optional<WriteError> writeError, long generation, long observedGeneration,
                         Map<String, BackendHealth> backendHealth, OperatingStatus operatingStatus,
                         Map<String, OperatingStatus> vipOperatingStatus, Map<String, HealthCheckSource> healthCheckSources) {

    /** The states of a spec. */
    public enum State {
        /** Declared; the engine has not written it yet (or cannot now: the database is unavailable). */
        PENDING,
        /** Changes are being written, or retried after a retriable error. */
        APPLYING,
        /** The database holds exactly what the spec says. */
        APPLIED,
        /** Written as far as possible; waiting for a router or switch that does not exist yet. */
        WAITING,
        /** Not written: the spec is invalid (or rejected by the EIP policy). What the database holds stays. */
        INVALID,
        /** Not written: it would take a VIP or a name that another owner or client already has. */
        CONFLICT,
        /** Not written: the server rejected it for good; retried when the spec or the rows it needs change. */
        FAILED,
        /**
         * Rows no spec names any more, kept: deleting them was held back, either by the deletion
         * budget (an {@code apply} that would delete more than its share of the owner's rows) or
         * because the owner's desired set is not complete yet (only {@code upsert}s so far). The
         * reason says which and how to release them.
         */
        HELD;

        /**
         * Whether the engine has reached a verdict for the current version (a waiting caller is answered).
         *
         * @return true for every state but PENDING and APPLYING
         */
        public boolean settled() {
            return this != PENDING && this != APPLYING;
        }
    }

    /**
     * Copies the collections.
     *
     * @param owner the owner
     * @param spec the spec's name
     * @param state the state
     * @param reasons why it is not applied, in words
     * @param warnings problems that do not stop it
     * @param rows UUIDs of its Load_Balancer rows
     * @param repairs how many times drift on its rows was repaired
     * @param lastRepair latency of the most recent repair
     * @param conflicts the rows or specs it conflicts with
     * @param writeError why the write did not succeed
     * @param generation the version of the desired spec this status is about
     * @param observedGeneration the version of the desired spec the database was last seen to hold
     * @param backendHealth backend (keyed as {@link BackendHealthView#key} writes it) to what OVN's
     *     service monitor says
     * @param operatingStatus whether it serves traffic: the worst of its VIPs'
     * @param vipOperatingStatus each VIP's operating status
     * @param healthCheckSources each mapped backend's health-check source
     */
    public SpecStatus {
        reasons = List.copyOf(reasons);
        warnings = List.copyOf(warnings);
        rows = Set.copyOf(rows);
        conflicts = List.copyOf(conflicts);
        // Most specs have no health checks: every status of theirs shares the empty map.
        backendHealth = backendHealth.isEmpty() ? Map.of()
                : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(backendHealth));
        java.util.Objects.requireNonNull(operatingStatus, "operatingStatus");
        vipOperatingStatus = vipOperatingStatus.isEmpty() ? Map.of()
                : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(vipOperatingStatus));
        healthCheckSources = healthCheckSources.isEmpty() ? Map.of()
                : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(healthCheckSources));
    }

    /**
     * A status without health-check sources.
     *
     * @param owner the owner
     * @param spec the spec's name
     * @param state the state
     * @param reasons why it is not applied
     * @param warnings problems that do not stop it
     * @param rows UUIDs of its Load_Balancer rows
     * @param repairs how many times drift was repaired
     * @param lastRepair latency of the most recent repair
     * @param conflicts the rows or specs it conflicts with
     * @param writeError why the write did not succeed
     * @param generation the version of the desired spec
     * @param observedGeneration the version the database was last seen to hold
     * @param backendHealth backend to what OVN's service monitor says
     * @param operatingStatus whether it serves traffic
     * @param vipOperatingStatus each VIP's operating status
     */
    public SpecStatus(String owner, String spec, State state, List<String> reasons, List<String> warnings, Set<UUID> rows,
                      long repairs, Optional<Duration> lastRepair, List<ConflictingRow> conflicts, Optional<WriteError> writeError,
                      long generation, long observedGeneration, Map<String, BackendHealth> backendHealth,
                      OperatingStatus operatingStatus, Map<String, OperatingStatus> vipOperatingStatus) {
        this(owner, spec, state, reasons, warnings, rows, repairs, lastRepair, conflicts, writeError, generation, observedGeneration,
                backendHealth, operatingStatus, vipOperatingStatus, Map.of());
    }

    /**
     * A status with backend health whose operating status is not known (UNKNOWN, no VIPs).
     *
     * @param owner the owner
     * @param spec the spec's name
     * @param state the state
     * @param reasons why it is not applied
     * @param warnings problems that do not stop it
     * @param rows UUIDs of its Load_Balancer rows
     * @param repairs how many times drift was repaired
     * @param lastRepair latency of the most recent repair
     * @param conflicts the rows or specs it conflicts with
     * @param writeError why the write did not succeed
     * @param generation the version of the desired spec
     * @param observedGeneration the version the database was last seen to hold
     * @param backendHealth backend to what OVN's service monitor says
     */
    public SpecStatus(String owner, String spec, State state, List<String> reasons, List<String> warnings, Set<UUID> rows,
                      long repairs, Optional<Duration> lastRepair, List<ConflictingRow> conflicts, Optional<WriteError> writeError,
                      long generation, long observedGeneration, Map<String, BackendHealth> backendHealth) {
        this(owner, spec, state, reasons, warnings, rows, repairs, lastRepair, conflicts, writeError, generation, observedGeneration,
                backendHealth, OperatingStatus.UNKNOWN, Map.of(), Map.of());
    }

    /**
     * Each backend's operating status, from {@link #backendHealth()} (see
     * {@link BackendHealth#operatingStatus()}); the backends of a VIP without a health check are
     * {@link OperatingStatus#NO_MONITOR} and not listed.
     *
     * @return backend, keyed as in {@link #backendHealth()}, to its operating status
     */
    public Map<String, OperatingStatus> backendOperatingStatus() {
        Map<String, OperatingStatus> out = new java.util.TreeMap<>();
        backendHealth.forEach((b, h) -> out.put(b, h.operatingStatus()));
        return java.util.Collections.unmodifiableMap(out);
    }

    /**
     * A status without backend health.
     *
     * @param owner the owner
     * @param spec the spec's name
     * @param state the state
     * @param reasons why it is not applied
     * @param warnings problems that do not stop it
     * @param rows UUIDs of its Load_Balancer rows
     * @param repairs how many times drift was repaired
     * @param lastRepair latency of the most recent repair
     * @param conflicts the rows or specs it conflicts with
     * @param writeError why the write did not succeed
     * @param generation the version of the desired spec
     * @param observedGeneration the version the database was last seen to hold
     */
    public SpecStatus(String owner, String spec, State state, List<String> reasons, List<String> warnings, Set<UUID> rows,
                      long repairs, Optional<Duration> lastRepair, List<ConflictingRow> conflicts, Optional<WriteError> writeError,
                      long generation, long observedGeneration) {
        this(owner, spec, state, reasons, warnings, rows, repairs, lastRepair, conflicts, writeError, generation, observedGeneration,
                Map.of());
    }

    /**
     * One short line for logs and assertion messages, e.g. {@code svc-1 HELD: deletion held: ... (1 row)};
     * every field is still available through the accessors.
     *
     * @return the line
     */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(owner).append('/').append(spec).append(' ').append(state);
        if (!reasons.isEmpty()) {
            sb.append(": ").append(String.join("; ", reasons));
        }
        if (!warnings.isEmpty()) {
            sb.append(" [warnings: ").append(String.join("; ", warnings)).append(']');
        }
        conflicts.forEach(c -> sb.append(" [conflict: ").append(c.describe()).append(']'));
        sb.append(" (").append(rows.size()).append(rows.size() == 1 ? " row" : " rows");
        if (repairs > 0) {
            sb.append(", ").append(repairs).append(repairs == 1 ? " repair" : " repairs");
        }
        sb.append(", ").append(operatingStatus.word());
        sb.append(", generation ").append(generation).append(observedGeneration == generation ? "" : ", observed " + observedGeneration);
        if (!backendHealth.isEmpty()) {
            sb.append(", health ").append(backendHealth);
        }
        return sb.append(')').toString();
    }

    /**
     * The main reason in one line, or an empty string when applied.
     *
     * @return the first reason, or ""
     */
    public String reason() {
        return reasons.isEmpty() ? "" : reasons.get(0);
    }
}
