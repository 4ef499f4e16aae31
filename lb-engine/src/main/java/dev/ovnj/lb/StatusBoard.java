package dev.ovnj.lb;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The status of every spec. The engine thread writes a working copy; {@link #publish()} (after
 * each engine step) swaps in an immutable snapshot that any thread reads without blocking, so a
 * status read is never older than the last step and never half-updated.
 */
final class StatusBoard {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(StatusBoard.class);
    private final Map<String, LinkedHashMap<String, SpecStatus>> working = new LinkedHashMap<>();
    /**
     * Per owner, the names whose status changed since the last publication, a name possibly more
     * than once: a list, not a set, because a converge changes every status of an owner a few
     * times and a hash set of 10,000 names per step was mostly garbage.
     */
    private final Map<String, List<String>> changed = new HashMap<>();
    private final Map<SpecKey, long[]> repairs = new HashMap<>();
    private final Map<SpecKey, Duration> lastRepair = new HashMap<>();
    private final Map<SpecKey, Map<String, BackendHealth>> health = new HashMap<>();
    /** Each spec's VIPs' operating status (absent: UNKNOWN, no VIPs). */
    private final Map<SpecKey, Map<String, OperatingStatus>> operating = new HashMap<>();
    /** Each checked spec's health-check sources, as its last verdict found them. */
    private final Map<SpecKey, Map<String, HealthCheckSource>> sources = new HashMap<>();
    private final EnumMap<SpecStatus.State, Integer> counts = new EnumMap<>(SpecStatus.State.class);
    private final EnumMap<OperatingStatus, Integer> operatingCounts = new EnumMap<>(OperatingStatus.class);
    private final ListenerBus bus;
    private volatile Map<String, Map<String, SpecStatus>> published = Map.of();
    private volatile Map<SpecStatus.State, Integer> publishedCounts = Map.of();
    private volatile Map<OperatingStatus, Integer> publishedOperatingCounts = Map.of();

    StatusBoard(ListenerBus bus) {
        this.bus = bus;
    }

    SpecStatus get(SpecKey key) {
        Map<String, SpecStatus> m = working.get(key.owner());
        return m == null ? null : m.get(key.spec());
    }

    // ---- the states a spec goes through, each named for what the engine decided ----

    /** Declared and queued, or waiting for the database: not written yet. Warnings and rows stay. */
    SpecStatus pending(SpecKey key, long generation, String reason) {
        SpecStatus before = get(key);
        return put(key, SpecStatus.State.PENDING, List.of(reason), warnings(before), rows(before), List.of(), Optional.empty(),
                generation, observed(before));
    }

    /** Removed: no longer APPLIED; the status goes away once its rows are gone. */
    SpecStatus deleting(SpecKey key, long generation) {
        setHealth(key, Map.of(), null);
        SpecStatus before = get(key);
        return put(key, SpecStatus.State.PENDING, List.of("removed; its rows are being deleted"), List.of(), rows(before), List.of(),
                Optional.empty(), generation, observed(before));
    }

    /** Being written; a status already APPLYING keeps its reason (a retry's, say) and server error. */
    SpecStatus applying(SpecKey key, long generation, List<String> warnings) {
        SpecStatus before = get(key);
        List<String> reasons = before != null && before.state() == SpecStatus.State.APPLYING ? before.reasons() : List.of("writing");
        return put(key, SpecStatus.State.APPLYING, reasons, warnings, rows(before), List.of(),
                before == null ? Optional.empty() : before.writeError(), generation, observed(before));
    }

    /** A retriable error: still APPLYING, the error and the backoff as its reason. */
    SpecStatus retrying(SpecKey key, long generation, WriteError error, Duration delay) {
        SpecStatus before = get(key);
        return put(key, SpecStatus.State.APPLYING, List.of("retrying in " + delay.toMillis() + " ms after: " + error.describe()),
                warnings(before), rows(before), List.of(), Optional.of(error), generation, observed(before));
    }

    /** Given up for good (the server's, the client's or the engine's own error). */
    SpecStatus failed(SpecKey key, long generation, WriteError error) {
        SpecStatus before = get(key);
        return put(key, SpecStatus.State.FAILED, List.of(error.describe()), warnings(before), rows(before), List.of(), Optional.of(error),
                generation, observed(before));
    }

    /** Invalid as declared: nothing is written for it. */
    SpecStatus invalid(SpecKey key, long generation, List<String> reasons) {
        setHealth(key, Map.of(), null);
        SpecStatus before = get(key);
        return put(key, SpecStatus.State.INVALID, reasons, List.of(), Set.of(), List.of(), Optional.empty(), generation,
                observed(before));
    }

    /** Its rows stay although no spec names them (the deletion budget, or an owner not complete yet). */
    SpecStatus held(SpecKey key, long generation, String reason) {
        SpecStatus before = get(key);
        return put(key, SpecStatus.State.HELD, List.of(reason), List.of(), rows(before), List.of(), Optional.empty(), generation,
                observed(before));
    }

    /** Another writer keeps changing its rows back: CONFLICT with that writer, rows and warnings kept. */
    SpecStatus fighting(SpecKey key, long generation, String reason, ConflictingRow other) {
        SpecStatus before = get(key);
        return put(key, SpecStatus.State.CONFLICT, List.of(reason), warnings(before), rows(before), List.of(other), Optional.empty(),
                generation, observed(before));
    }

    /** A spec this engine does not write for now (another engine holds its owner's lock): the state stays, the reason says why. */
    SpecStatus standingBy(SpecKey key, long generation, String reason) {
        SpecStatus before = get(key);
        return put(key, before.state(), List.of(reason), before.warnings(), before.rows(), List.of(), Optional.empty(), generation,
                before.observedGeneration());
    }

    /**
     * A fresh plan found nothing to write: the verdict. APPLIED and WAITING mean the database was
     * seen holding this generation; the other verdicts keep what was observed before.
     */
    SpecStatus decided(SpecKey key, long generation, Reconciler.Settled s) {
        SpecStatus before = get(key);
        boolean inPlace = s.state() == SpecStatus.State.APPLIED || s.state() == SpecStatus.State.WAITING;
        if (s.health().sources().isEmpty()) {
            sources.remove(key);
        } else {
            sources.put(key, s.health().sources());
        }
        return put(key, s.state(), s.reasons(), s.warnings(), s.rows(), s.conflicts(), Optional.empty(), generation,
                inPlace ? generation : observed(before));
    }

    private static List<String> warnings(SpecStatus before) {
        return before == null ? List.of() : before.warnings();
    }

    private static Set<UUID> rows(SpecStatus before) {
        return before == null ? Set.of() : before.rows();
    }

    private static long observed(SpecStatus before) {
        return before == null ? 0 : before.observedGeneration();
    }

    /** Sets a status from its parts, keeping the repair counters; tells listeners when it changed. */
    private SpecStatus put(SpecKey key, SpecStatus.State state, List<String> reasons, List<String> warnings, Set<UUID> rows,
                   List<ConflictingRow> conflicts, Optional<WriteError> error, long generation, long observed) {
        long[] r = repairs.get(key);
        Map<String, OperatingStatus> vips = operating.get(key);
        SpecStatus next = new SpecStatus(key.owner(), key.spec(), state, reasons, warnings, rows, r == null ? 0 : r[0],
                Optional.ofNullable(lastRepair.get(key)), conflicts, error, generation, observed, health.getOrDefault(key, Map.of()),
                rollUp(vips), vips == null ? Map.of() : vips, sources.getOrDefault(key, Map.of()));
        SpecStatus old = working.computeIfAbsent(key.owner(), o -> new LinkedHashMap<>()).put(key.spec(), next);
        changed(key);
        count(old, -1);
        count(next, 1);
        if (bus.wants(ListenerBus.Event.STATUS) && (old == null || old.state() != next.state() || !old.reasons().equals(next.reasons())
                || !old.warnings().equals(next.warnings()) || !Objects.equals(old.writeError(), next.writeError()))) {
            bus.publish(ListenerBus.Event.STATUS, l -> l.onStatus(next));
        }
        return next;
    }

    /** Counts a repaired row of a spec. */
    void recordRepair(SpecKey key, Duration latency) {
        repairs.computeIfAbsent(key, k -> new long[1])[0]++;
        lastRepair.put(key, latency);
        SpecStatus s = get(key);
        if (s != null) {
            SpecStatus next = new SpecStatus(s.owner(), s.spec(), s.state(), s.reasons(), s.warnings(), s.rows(),
                    repairs.get(key)[0], Optional.of(latency), s.conflicts(), s.writeError(), s.generation(), s.observedGeneration(),
                    s.backendHealth(), s.operatingStatus(), s.vipOperatingStatus(), s.healthCheckSources());
            working.get(key.owner()).put(key.spec(), next);
            changed(key);
        }
    }

    /** A spec's operating status: the worst of its VIPs', UNKNOWN when they are not known. */
    private static OperatingStatus rollUp(Map<String, OperatingStatus> vips) {
        return vips == null ? OperatingStatus.UNKNOWN : OperatingStatus.worst(vips.values());
    }

    /**
     * Sets a spec's backend health and its VIPs' operating status (null: not known, the spec is
     * invalid or removed); tells listeners, one event per backend that changed and one when the
     * spec's operating status changed.
     */
    void setHealth(SpecKey key, Map<String, BackendHealth> now, Map<String, OperatingStatus> vips) {
        Map<String, BackendHealth> old = health.getOrDefault(key, Map.of());
        Map<String, OperatingStatus> oldVips = operating.get(key);
        if (old.equals(now) && Objects.equals(oldVips, vips)) {
            return;
        }
        if (now.isEmpty()) {
            health.remove(key);
        } else {
            health.put(key, Map.copyOf(now));
        }
        if (vips == null) {
            operating.remove(key);
        } else {
            operating.put(key, Map.copyOf(vips));
        }
        SpecStatus s = get(key);
        if (s == null) {
            return;
        }
        SpecStatus next = new SpecStatus(s.owner(), s.spec(), s.state(), s.reasons(), s.warnings(), s.rows(), s.repairs(),
                s.lastRepair(), s.conflicts(), s.writeError(), s.generation(), s.observedGeneration(), now, rollUp(vips),
                vips == null ? Map.of() : vips, s.healthCheckSources());
        working.get(key.owner()).put(key.spec(), next);
        changed(key);
        countOperating(s, -1);
        countOperating(next, 1);
        for (Map.Entry<String, BackendHealth> e : now.entrySet()) {
            BackendHealth before = old.getOrDefault(e.getKey(), BackendHealth.UNKNOWN);
            if (before != e.getValue()) {
                BackendHealthChange change = new BackendHealthChange(key.owner(), key.spec(), e.getKey(), before, e.getValue());
                bus.publish(ListenerBus.Event.BACKEND_HEALTH, l -> l.onBackendHealth(change));
            }
        }
        if (s.operatingStatus() != next.operatingStatus()) {
            if (!now.isEmpty() || !old.isEmpty()) {
                // Monitored specs only: a spec without health checks is NO_MONITOR from its first verdict on, not news.
                LOG.info("owner {}, spec {}: operating status {} -> {}", key.owner(), key.spec(), s.operatingStatus(),
                        next.operatingStatus());
            }
            OperatingStatusChange change = new OperatingStatusChange(key.owner(), key.spec(), s.operatingStatus(), next.operatingStatus(),
                    next.vipOperatingStatus());
            bus.publish(ListenerBus.Event.OPERATING, l -> l.onOperatingStatus(change));
        }
    }

    /** The spec and its rows are gone: its status goes, and listeners hear it once. */
    void remove(SpecKey key) {
        Map<String, SpecStatus> m = working.get(key.owner());
        if (m != null) {
            SpecStatus last = m.remove(key.spec());
            count(last, -1);
            changed(key);
            if (last != null && bus.wants(ListenerBus.Event.REMOVED)) {
                bus.publish(ListenerBus.Event.REMOVED, l -> l.onRemoved(key.owner(), key.spec()));
            }
        }
        repairs.remove(key);
        lastRepair.remove(key);
        health.remove(key);
        operating.remove(key);
        sources.remove(key);
    }

    private void changed(SpecKey key) {
        changed.computeIfAbsent(key.owner(), o -> new ArrayList<>()).add(key.spec());
    }

    /**
     * Publishes what changed since the last call; the cost follows the number of changed statuses,
     * not the owner's size (each owner's snapshot shares its unchanged part with the previous one).
     */
    void publish() {
        if (changed.isEmpty()) {
            return;
        }
        Map<String, Map<String, SpecStatus>> next = new HashMap<>(published);
        for (Map.Entry<String, List<String>> e : changed.entrySet()) {
            Map<String, SpecStatus> m = working.getOrDefault(e.getKey(), new LinkedHashMap<>());
            Map<String, SpecStatus> before = published.get(e.getKey());
            next.put(e.getKey(), before instanceof StatusSnapshot s ? s.with(e.getValue(), m) : StatusSnapshot.of(m));
        }
        changed.clear();
        published = Collections.unmodifiableMap(next);
        Map<SpecStatus.State, Integer> c = new EnumMap<>(SpecStatus.State.class);
        for (SpecStatus.State s : SpecStatus.State.values()) {
            c.put(s, counts.getOrDefault(s, 0));
        }
        publishedCounts = Collections.unmodifiableMap(c);
        Map<OperatingStatus, Integer> o = new EnumMap<>(OperatingStatus.class);
        for (OperatingStatus s : OperatingStatus.values()) {
            o.put(s, operatingCounts.getOrDefault(s, 0));
        }
        publishedOperatingCounts = Collections.unmodifiableMap(o);
    }

    /** The published statuses of one owner; any thread. */
    Map<String, SpecStatus> snapshot(String owner) {
        return published.getOrDefault(owner, Map.of());
    }

    /** The published count of specs per state; any thread. */
    Map<SpecStatus.State, Integer> counts() {
        return publishedCounts;
    }

    /** The published count of specs per operating status; any thread. */
    Map<OperatingStatus, Integer> operatingCounts() {
        return publishedOperatingCounts;
    }

    private void count(SpecStatus s, int delta) {
        if (s != null) {
            counts.merge(s.state(), delta, Integer::sum);
        }
        countOperating(s, delta);
    }

    private void countOperating(SpecStatus s, int delta) {
        if (s != null) {
            operatingCounts.merge(s.operatingStatus(), delta, Integer::sum);
        }
    }
}
