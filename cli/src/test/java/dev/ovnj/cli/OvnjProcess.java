package dev.ovnj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/** The packaged jar run as a separate process, as the README and the launcher run it. */
final class OvnjProcess implements AutoCloseable {
    static final Path JAR = Path.of("target", "ovnj.jar");
    private final Process process;
    private final List<String> stdout = new CopyOnWriteArrayList<>();
    private final List<String> stderr = new CopyOnWriteArrayList<>();
    private final Thread[] readers;

    private OvnjProcess(Process process) {
        this.process = process;
        this.readers = new Thread[] {drain(process.getInputStream(), stdout), drain(process.getErrorStream(), stderr)};
    }

    /** Starts {@code java -jar ovnj.jar args...} with no standard input. */
    static OvnjProcess start(String... args) {
        return start(Map.of(), args);
    }

    /** Starts {@code java -jar ovnj.jar args...} with no standard input and these variables added to the environment. */
    static OvnjProcess start(Map<String, String> env, String... args) {
        return start(List.of(), env, args);
    }

    /** Starts {@code java JVM-OPTIONS -jar ovnj.jar args...} with no standard input and these variables added to the environment. */
    static OvnjProcess start(List<String> jvmOptions, Map<String, String> env, String... args) {
        assertThat(Files.exists(JAR)).as("shaded jar built in the package phase").isTrue();
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-jar", JAR.toString()));
        cmd.addAll(List.of(args));
        try {
            ProcessBuilder builder = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            builder.environment().putAll(env);
            return new OvnjProcess(builder.start());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs to completion (at most 60 s) and returns the outcome. */
    static Result run(String... args) {
        return run(Map.of(), args);
    }

    /** Runs to completion (at most 60 s) with these variables added to the environment and returns the outcome. */
    static Result run(Map<String, String> env, String... args) {
        try (OvnjProcess p = start(env, args)) {
            return p.await(Duration.ofSeconds(60));
        }
    }

    /** Waits for the process to end. */
    Result await(Duration timeout) {
        try {
            assertThat(process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)).as("ovnj ended within " + timeout).isTrue();
            for (Thread t : readers) {
                t.join(5000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return new Result(process.exitValue(), String.join("\n", stdout), String.join("\n", stderr));
    }

    /** The process's id, e.g. to read its /proc/PID/status. */
    long pid() {
        return process.pid();
    }

    /** Lines printed so far on stdout. */
    List<String> stdout() {
        return List.copyOf(stdout);
    }

    /** Lines printed so far on stderr. */
    List<String> stderr() {
        return List.copyOf(stderr);
    }

    /** Sends SIGTERM with kill(1): Process.destroy() would also close our end of its output. */
    void terminate() {
        try {
            assertThat(new ProcessBuilder("kill", "-TERM", Long.toString(process.pid())).start().waitFor()).isZero();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }

    private static Thread drain(java.io.InputStream in, List<String> lines) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String l = r.readLine(); l != null; l = r.readLine()) {
                    lines.add(l);
                }
            } catch (IOException e) {
                lines.add("(reading failed: " + e + ")");
            }
        });
        t.setDaemon(true);
        t.start();
        return t;
    }

    /**
     * How a run ended.
     *
     * @param exit the exit code
     * @param out stdout
     * @param err stderr
     */
    record Result(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
        }
    }
}
