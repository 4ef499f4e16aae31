package dev.ovnj.cli;

import dev.ovnj.lb.ApplyResult;
import dev.ovnj.lb.EngineListener;
import dev.ovnj.lb.RepairEvent;
import dev.ovnj.lb.SpecStatus;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
                        + " 2: invalid file or spec (valid specs are applied, invalid ones keep what the database has), or no database."})
final class ReconcileCommand implements Callable<Integer> {
    private static final Duration POLL = Duration.ofMillis(300);

    @Mixin
    private DatabaseOptions db;

    @Mixin
    private OutputOption output;

    @Option(names = {"-f", "--file"}, required = true, paramLabel = "FILE", description = "Desired state, YAML or JSON.")
    private Path file;

    @Option(names = "--owner", paramLabel = "NAME", description = "Owner to write as; overrides the file's owner.")
    private String owner;

    @Option(names = {"-w", "--watch"}, description = "Keep reconciling: repair drift and re-read FILE when it changes, until SIGINT/SIGTERM.")
    private boolean watch;

    @Override
    public Integer call() throws InterruptedException {
        PrintStream out = System.out;
        DesiredState state = DesiredStateReader.read(file);
        String who = state.ownerOr(owner);
        try (NorthboundSession session = NorthboundSession.open(db)) {
            if (!watch) {
                return apply(session, state, who, out);
            }
            session.engine().addListener(new EngineListener() {
                @Override
                public void onRepair(RepairEvent event) {
                    if (output.json()) {
                        JsonDocument.print(out, ReconcileJson.repair(event));
                        return;
                    }
                    out.println(RepairLine.of(event));
                    out.flush();
                }

                @Override
                public void onAvailability(boolean available, String reason) {
                    System.err.println((available ? "database available: " : "database unavailable: ") + reason);
                }
            });
            try (ShutdownSignal signal = ShutdownSignal.install()) {
                apply(session, state, who, out);
                status(out, "watching " + file + " and the database (owner " + who + "); SIGINT or SIGTERM stops");
                out.flush();
                watch(session, signal, out);
                status(out, "stopped");
            }
        }
        return 0;
    }

    private void watch(NorthboundSession session, ShutdownSignal signal, PrintStream out) throws InterruptedException {
        FileStamp seen = FileStamp.of(file);
        while (!signal.await(POLL)) {
            FileStamp now = FileStamp.of(file);
            if (now.equals(seen)) {
                continue;
            }
            seen = now;
            DesiredState next;
            String who;
            try {
                next = DesiredStateReader.read(file);
                who = next.ownerOr(owner);
            } catch (DesiredStateException e) {
                System.err.println(e.getMessage() + " (keeping the previous state)");
                continue;
            }
            status(out, file + " changed");
            try {
                apply(session, next, who, out);
            } catch (CliFailure e) {
                System.err.println(e.getMessage() + " (the engine keeps trying)");
            }
        }
    }

    /** Applies once, prints a summary, and returns the exit code of a one-shot reconcile. */
    private int apply(NorthboundSession session, DesiredState state, String who, PrintStream printed) throws InterruptedException {
        // With JSON output the text lines go nowhere and one document says it all.
        PrintStream out = output.json() ? new PrintStream(OutputStream.nullOutputStream()) : printed;
        EffectiveSpecs specs = EffectiveSpecs.of(state, who);
        specs.problems().forEach(System.err::println);
        ApplyResult result;
        ProgressLine progress = ProgressLine.start("reconciling owner " + who, output.json());
        try {
            result = session.engine().apply(who, specs.specs()).get(db.timeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new CliFailure("the database did not accept the changes within " + DatabaseOptions.seconds(db.timeout()), e);
        } catch (ExecutionException e) {
            throw new CliFailure("applying " + file + " failed: " + e.getCause().getMessage(), e.getCause());
        } finally {
            progress.close();
        }
        int applied = 0;
        int pending = 0;
        for (SpecStatus s : result.statuses().values()) {
            if (s.state() == SpecStatus.State.INVALID) {
                continue;
            }
            if (s.state() == SpecStatus.State.PENDING) {
                pending++;
                s.reasons().forEach(r -> out.println(s.spec() + " pending: " + r));
            } else {
                applied++;
            }
            s.warnings().forEach(w -> out.println(s.spec() + " warning: " + w));
        }
        StringBuilder summary = new StringBuilder("owner " + who + ": " + applied + " applied");
        if (pending > 0) {
            summary.append(", ").append(pending).append(" pending");
        }
        if (!specs.invalid().isEmpty()) {
            summary.append(", ").append(specs.invalid().size()).append(" invalid, not written (the database keeps what it has for them)");
        }
        out.println(summary);
        out.flush();
        int exitCode = !specs.problems().isEmpty() ? 2 : pending > 0 ? 1 : 0;
        if (output.json()) {
            JsonDocument.print(printed, ReconcileJson.of(result, specs.problems(), exitCode));
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
}
