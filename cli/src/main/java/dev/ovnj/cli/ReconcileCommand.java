package dev.ovnj.cli;

import dev.ovnj.lb.ApplyResult;
import dev.ovnj.lb.BackendHealthChange;
import dev.ovnj.lb.EngineListener;
import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.lb.RepairEvent;
import dev.ovnj.lb.SpecStatus;
import dev.ovnj.lb.SpecTimeoutException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ovnj reconcile}: makes the database hold a desired-state file's load balancers, once or,
 * with {@code --watch}, continuously, repairing drift and following edits of the file.
 */
@Command(name = "reconcile", mixinStandardHelpOptions = true,
        description = {"Apply the load balancers of a desired-state file.",
                "Exit 0: the database matches; 1: some load balancer waits for a router, switch or group that does not exist;"
                        + " 2: invalid file or spec (valid specs are applied, invalid ones keep what the database has), no database,"
                        + " or the database rejected the changes (e.g. read-only);"
                        + " 3: some load balancer conflicts with one ovnj does not own (everything else is applied);"
                        + " 4: deletions held: the file would delete more of the owner's load balancers than the deletion budget"
                        + " allows (more than half of them and more than 5), so none of those was deleted (--allow-mass-delete deletes them).",
                "Only one writer per owner: reconcile takes the owner's OVSDB lock before it writes, so a second reconcile --watch"
                        + " of the same owner (e.g. the new pod of a rolling update) stands by until the first stops."})
final class ReconcileCommand implements Callable<Integer> {
    private static final Duration POLL = Duration.ofMillis(300);
    /** How much longer than the engine's own bound (--timeout) an apply waits before giving up on the engine itself. */
    private static final Duration ENGINE_MARGIN = Duration.ofSeconds(5);
    /** Exit code when a spec conflicts with a row ovnj does not own. */
    static final int CONFLICT = 3;
    /** Exit code when deletions were held back by the deletion budget. */
    static final int HELD = 4;
    /** Above this many rows in one repair round, watch mode prints one summary line instead of one per row. */
    static final int MASS_REPAIR = 10;

    @Mixin
    private DatabaseOptions db;

    @Mixin
    private OutputOption output;

    @Mixin
    private DesiredStateFile stateFile;

    @Mixin
    private OwnerOption owner;

    @Option(names = {"-w", "--watch"}, description = "Keep reconciling: repair drift and re-read FILE when it changes, until SIGINT/SIGTERM.")
    private boolean watch;

    @Mixin
    private SouthboundOption southbound;

    @Option(names = "--each-repair", description = "With --watch: one line per repaired row even when thousands are repaired at once.")
    private boolean eachRepair;

    @Option(names = "--allow-mass-delete",
            description = "Delete every load balancer of the owner that FILE no longer names, even more than half of them"
                    + " (without it, such deletions are held: the rows stay and reconcile exits 4).")
    private boolean allowMassDelete;

    @Mixin
    private AdoptOption adopt;

    @Option(names = "--lock", paramLabel = "NAME",
            description = "Write only while holding this OVSDB lock (active/standby for several owners at once);"
                    + " by default each owner's own lock is taken.")
    private String lock;

    @Option(names = "--no-owner-lock",
            description = "Write without taking the owner's OVSDB lock (two writers of one owner may then fight).")
    private boolean noOwnerLock;

    private volatile boolean reporting;

    @Override
    public Integer call() throws InterruptedException {
        PrintStream out = System.out;
        DesiredState state = stateFile.require();
        String who = owner.or(state);
        UnaryOperator<LoadBalancerEngine.Builder> engine = b -> {
            if (lock != null) {
                b.lock(lock);
            }
            return b.ownerLocks(!noOwnerLock);
        };
        try (NorthboundSession session = southbound.remotes().isEmpty() ? NorthboundSession.open(db, engine)
                : NorthboundSession.open(db, southbound.remotes().get(), engine)) {
            if (!watch) {
                return apply(session, state, who, out);
            }
            session.engine().addListener(new EngineListener() {
                @Override
                public void onRepairs(List<RepairEvent> events) {
                    if (output.json()) {
                        events.forEach(e -> JsonDocument.print(out, ReconcileJson.repair(e)));
                    } else if (events.size() > MASS_REPAIR && !eachRepair) {
                        out.println(RepairLine.summary(events));
                    } else {
                        events.forEach(e -> out.println(RepairLine.of(e)));
                    }
                    out.flush();
                }

                @Override
                public void onStatus(SpecStatus status) {
                    // After the first apply, which reports on its own: conflicts and failures found while watching.
                    if (!reporting) {
                        return;
                    }
                    if (output.json()) {
                        List<String> lines = problemLines(status);
                        if (!lines.isEmpty()) {
                            JsonDocument.print(out, ReconcileJson.problem(status, lines));
                        }
                    } else {
                        problemLines(status).forEach(out::println);
                    }
                    out.flush();
                }

                @Override
                public void onBackendHealth(BackendHealthChange c) {
                    out.println("health: spec " + c.spec() + " backend " + c.backend() + " " + c.now().word()
                            + " (was " + c.before().word() + ")");
                    out.flush();
                }

                @Override
                public void onAvailability(boolean available, String reason) {
                    System.err.println((available ? "database available: " : "database unavailable: ") + reason);
                }
            });
            try (ShutdownSignal signal = ShutdownSignal.install()) {
                applyReporting(session, state, who, out);
                reporting = true;
                status(out, "watching " + stateFile.path() + " and the database (owner " + who + "); SIGINT or SIGTERM stops");
                out.flush();
                watch(session, signal, out);
                status(out, "stopped");
            }
        }
        return 0;
    }

    /** The load balancers a timed-out apply still waits for, at most three named. */
    private static String notYetWritten(SpecTimeoutException t) {
        List<String> names = new ArrayList<>(new TreeMap<>(t.statuses()).keySet());
        if (names.isEmpty()) {
            return "the whole file";
        }
        return names.size() + " load balancer(s) (" + String.join(", ", names.subList(0, Math.min(3, names.size())))
                + (names.size() > 3 ? ", ..." : "") + ")";
    }

    private void watch(NorthboundSession session, ShutdownSignal signal, PrintStream out) throws InterruptedException {
        FileStamp seen = FileStamp.of(stateFile.path());
        while (!signal.await(POLL)) {
            FileStamp now = FileStamp.of(stateFile.path());
            if (now.equals(seen)) {
                continue;
            }
            seen = now;
            DesiredState next;
            String who;
            try {
                next = DesiredStateReader.read(stateFile.path());
                who = owner.or(next);
            } catch (DesiredStateException e) {
                System.err.println(e.getMessage() + " (keeping the previous state)");
                continue;
            }
            status(out, stateFile.path() + " changed");
            reporting = false;
            applyReporting(session, next, who, out);
            reporting = true;
        }
    }

    /** Applies in watch mode: a failure is reported and watching goes on. */
    private void applyReporting(NorthboundSession session, DesiredState state, String who, PrintStream out) throws InterruptedException {
        try {
            apply(session, state, who, out);
        } catch (CliFailure e) {
            System.err.println(e.getMessage() + " (the engine keeps watching)");
        }
    }

    /**
     * Applies once, prints a summary, and returns the exit code of a one-shot reconcile; a
     * rejection by the database is one line naming the server's error (a {@link CliFailure}).
     */
    private int apply(NorthboundSession session, DesiredState state, String who, PrintStream printed) throws InterruptedException {
        // With JSON output the text lines go nowhere and one document says it all.
        PrintStream out = output.json() ? new PrintStream(OutputStream.nullOutputStream()) : printed;
        EffectiveSpecs specs = EffectiveSpecs.of(state, who);
        specs.problems().forEach(System.err::println);
        ApplyResult result;
        ProgressLine progress = ProgressLine.start("reconciling owner " + who, output.json());
        try {
            // The engine answers within --timeout (its request timeout); the margin only guards against a stuck engine.
            Duration bound = session.engine().requestTimeout().plus(ENGINE_MARGIN);
            result = session.engine().apply(who, specs.specs(), adopt.with(allowMassDelete)).get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new CliFailure("the database did not accept the changes within " + DatabaseOptions.seconds(db.timeout())
                    + " (" + session.engine().availability() + ")", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SpecTimeoutException t) {
                throw new CliFailure("the database did not accept the changes within " + DatabaseOptions.seconds(t.timeout())
                        + " (" + t.waitingFor() + "; not yet written: " + notYetWritten(t) + ")", t);
            }
            throw new CliFailure("applying " + stateFile.path() + " failed: " + e.getCause().getMessage(), e.getCause());
        } finally {
            progress.close();
        }
        int applied = 0;
        int pending = 0;
        int conflicts = 0;
        List<String> held = new ArrayList<>();
        List<String> rejected = new ArrayList<>();
        Map<String, List<String>> failed = new TreeMap<>();
        for (SpecStatus s : result.statuses().values()) {
            switch (s.state()) {
                case INVALID -> {
                    if (!specs.invalid().contains(s.spec())) {
                        // Found by the engine against the database (e.g. a health-check source outside the
                        // backend's subnet), not by the file's validation, which printed its own lines.
                        rejected.add(s.spec());
                        s.reasons().forEach(r -> System.err.println(s.spec() + " invalid: " + r + " (not written)"));
                    }
                    continue;
                }
                case WAITING -> {
                    pending++;
                    s.reasons().forEach(r -> out.println(s.spec() + " pending: " + r));
                }
                case CONFLICT -> {
                    conflicts++;
                    problemLines(s).forEach(out::println);
                }
                case FAILED -> failed.computeIfAbsent(s.reason(), r -> new ArrayList<>()).add(s.spec());
                case HELD -> held.add(s.spec());
                default -> applied++;
            }
            s.warnings().forEach(w -> out.println(s.spec() + " warning: " + w));
        }
        StringBuilder summary = new StringBuilder("owner " + who + ": " + applied + " applied");
        if (pending > 0) {
            summary.append(", ").append(pending).append(" pending");
        }
        if (conflicts > 0) {
            summary.append(", ").append(conflicts).append(" in conflict, not written");
        }
        int invalid = specs.invalid().size() + rejected.size();
        if (invalid > 0) {
            summary.append(", ").append(invalid).append(" invalid, not written (the database keeps what it has for them)");
        }
        if (!failed.isEmpty()) {
            int n = failed.values().stream().mapToInt(List::size).sum();
            summary.append(", ").append(n).append(" rejected by the database");
        }
        if (!held.isEmpty()) {
            held.sort(null);
            summary.append(", ").append(held.size()).append(" kept although FILE no longer names them (deletion held)");
        }
        out.println(summary);
        if (!held.isEmpty()) {
            // The reason is the same for all of them: once, with the numbers and the way out.
            out.println("held: " + String.join(", ", held.subList(0, Math.min(10, held.size()))) + (held.size() > 10 ? ", ..." : "")
                    + ": " + result.statuses().get(held.get(0)).reason());
        }
        out.flush();
        int exitCode = !failed.isEmpty() || !specs.problems().isEmpty() || !rejected.isEmpty() ? 2 : conflicts > 0 ? CONFLICT : !held.isEmpty() ? HELD
                : pending > 0 ? 1 : 0;
        if (output.json()) {
            JsonDocument.print(printed, ReconcileJson.of(result, specs.problems(), exitCode));
        }
        if (!failed.isEmpty()) {
            Map.Entry<String, List<String>> first = failed.entrySet().iterator().next();
            List<String> names = first.getValue();
            throw new CliFailure("the database rejected the changes of " + names.size() + " load balancer(s) ("
                    + String.join(", ", names.subList(0, Math.min(3, names.size()))) + (names.size() > 3 ? ", ..." : "")
                    + "): " + first.getKey());
        }
        return exitCode;
    }

    /** A watch-mode status line: text only, since JSON output prints documents alone. */
    private void status(PrintStream out, String line) {
        if (!output.json()) {
            out.println(line);
            out.flush();
        }
    }

    /** One line per conflict (naming the spec, the VIP and the other row), or the failure of a spec. */
    static List<String> problemLines(SpecStatus s) {
        List<String> out = new ArrayList<>();
        if (s.state() == SpecStatus.State.CONFLICT) {
            s.conflicts().forEach(c -> out.add(s.spec() + " conflict: " + c.describe() + "; not written"));
        } else if (s.state() == SpecStatus.State.FAILED) {
            out.add(s.spec() + " failed: " + s.reason());
        }
        return out;
    }
}
