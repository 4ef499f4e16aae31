package dev.ovnj.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A short-lived external command (ovsdb-tool, ovs-appctl, ovn-nbctl, openssl) run to completion
 * with a timeout; the output is captured, and a failure carries stderr. OVS/OVN programs run from
 * the {@link OvnRelease#current() current release}.
 */
public final class Command {

    /** What a finished command printed and how it exited. */
    public record Result(int exitCode, String stdout, String stderr) {
        /**
         * Returns true when the command exited 0.
         *
         * @return returns true when the command exited 0
         */
        public boolean ok() {
            return exitCode == 0;
        }
    }

    private final List<String> argv;
    private final Duration timeout;

    private Command(List<String> argv, Duration timeout) {
        this.argv = List.copyOf(OvnRelease.current().resolve(List.copyOf(argv)));
        this.timeout = timeout;
    }

    /**
     * Describes a command.
     *
     * @param argv program and arguments
     * @return the command, not yet run
     */
    public static Command of(String... argv) {
        return new Command(List.of(argv), Duration.ofSeconds(60));
    }

    /**
     * Describes a command.
     *
     * @param argv program and arguments
     * @return the command, not yet run
     */
    public static Command of(List<String> argv) {
        return new Command(argv, Duration.ofSeconds(60));
    }

    /**
     * Returns a copy that waits at most {@code timeout}.
     *
     * @param timeout how long the command may run before it is killed
     * @return the new command
     */
    public Command timeout(Duration timeout) {
        return new Command(argv, timeout);
    }

    /**
     * Runs the command and returns its result whatever the exit code.
     *
     * @return exit code and output
     * @throws TestkitException if it cannot start or exceeds its timeout
     */
    public Result run() {
        Process p;
        try {
            p = new ProcessBuilder(argv).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        } catch (IOException e) {
            throw new TestkitException("cannot start " + argv.get(0) + ": " + e.getMessage()
                    + " (is it installed? scripts/install-ovs.sh installs the OVS/OVN tools)", e);
        }
        // Both streams are drained concurrently so that a chatty command cannot fill a pipe and stall.
        CompletableFuture<String> out = drain(p.getInputStream());
        CompletableFuture<String> err = drain(p.getErrorStream());
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new TestkitException(String.join(" ", argv) + " did not finish within " + timeout);
            }
            return new Result(p.exitValue(), out.get(5, TimeUnit.SECONDS), err.get(5, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new TestkitException("interrupted while running " + argv.get(0), e);
        } catch (ExecutionException | TimeoutException e) {
            throw new TestkitException("cannot read output of " + argv.get(0), e);
        }
    }

    /**
     * Runs the command and returns its stdout, failing unless it exits 0.
     *
     * @return stdout
     * @throws TestkitException naming the command and its stderr when it fails
     */
    public String check() {
        Result r = run();
        if (!r.ok()) {
            throw new TestkitException(String.join(" ", argv) + " exited " + r.exitCode() + ": " + r.stderr().trim());
        }
        return r.stdout();
    }

    private static CompletableFuture<String> drain(InputStream in) {
        CompletableFuture<String> text = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try (in) {
                text.complete(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                text.complete("");
            }
        }, "ovnj-command-output");
        t.setDaemon(true);
        t.start();
        return text;
    }

    @Override
    public String toString() {
        return String.join(" ", argv);
    }
}
