package dev.ovnj.lb.diagnosis;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A {@link Tracer} that runs {@code ovn-trace} against a Southbound database: {@code --summary} with
 * connection states {@code new} so that a first packet's load-balancing shows, or {@code --detailed}
 * with the caller's options.
 */
public final class OvnTrace implements Tracer {
    private static final List<String> ON_PATH = List.of("ovn-trace");

    private final List<String> program;
    private final String database;
    private final List<String> tlsArgs;
    private final Duration timeout;

    private OvnTrace(List<String> program, String database, List<String> tlsArgs, Duration timeout) {
        this.program = List.copyOf(program);
        this.database = database;
        this.tlsArgs = List.copyOf(tlsArgs);
        this.timeout = timeout;
    }

    /**
     * Traces against a Southbound database.
     *
     * @param southboundRemote the {@code --db} value, e.g. {@code tcp:127.0.0.1:6642}
     * @return the tracer
     */
    public static OvnTrace of(String southboundRemote) {
        return new OvnTrace(ON_PATH, Objects.requireNonNull(southboundRemote, "southboundRemote"), List.of(), Duration.ofSeconds(20));
    }

    /**
     * Returns a copy that connects with TLS.
     *
     * @param privateKey private key (PEM)
     * @param certificate certificate (PEM)
     * @param caCert CA certificate (PEM)
     * @return the new tracer
     */
    public OvnTrace withTls(Path privateKey, Path certificate, Path caCert) {
        return new OvnTrace(program, database, List.of("--private-key=" + privateKey, "--certificate=" + certificate,
                "--ca-cert=" + caCert), timeout);
    }

    /**
     * Returns a copy that runs {@code ovn-trace} by another command line, e.g. the OVN release of the
     * Southbound database when it differs from the one on {@code PATH}, or a wrapper such as
     * {@code kubectl exec POD -- ovn-trace}.
     *
     * @param command the program and any leading arguments; the trace's own arguments follow
     * @return the new tracer
     * @throws IllegalArgumentException when the command is empty
     */
    public OvnTrace withCommand(List<String> command) {
        if (command.isEmpty()) {
            throw new IllegalArgumentException("the ovn-trace command line is empty");
        }
        return new OvnTrace(command, database, tlsArgs, timeout);
    }

    @Override
    public Optional<String> unavailable() {
        String name = program.get(0);
        if (name.contains(File.separator)) {
            return Files.isExecutable(Path.of(name)) ? Optional.empty() : Optional.of(name + " is not an executable file");
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                    return Optional.empty();
                }
            }
        }
        return Optional.of(name + " is not installed (not found on PATH)");
    }

    @Override
    public String trace(String datapath, String microflow) {
        // One "new" per conntrack step a first packet passes (defrag/dnat, then the load balancer).
        return run(List.of("--summary", "--ct=new", "--ct=new", "--ct=new", "--ct=new"), datapath, microflow);
    }

    @Override
    public String traceDetailed(String datapath, String microflow, List<String> options) {
        List<String> all = new ArrayList<>(List.of("--detailed"));
        all.addAll(options);
        return run(all, datapath, microflow);
    }

    private String run(List<String> options, String datapath, String microflow) {
        List<String> argv = new ArrayList<>(program);
        argv.add("--db=" + database);
        argv.addAll(tlsArgs);
        argv.addAll(options);
        argv.add(datapath);
        argv.add(microflow);
        Path output;
        Process p;
        try {
            // A file, not a pipe: waiting on the process is then bounded even if it never exits.
            output = Files.createTempFile("ovnj-trace-", ".txt");
            p = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(output.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        } catch (IOException e) {
            throw new TraceException("cannot run ovn-trace: " + e.getMessage());
        }
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new TraceException("ovn-trace did not finish within " + timeout.toSeconds() + " s");
            }
            String text = Files.readString(output, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new TraceException("ovn-trace exited with " + p.exitValue() + ": "
                        + text.lines().filter(l -> !l.isBlank()).reduce((a, b) -> b).orElse("").trim());
            }
            return text;
        } catch (IOException e) {
            throw new TraceException("reading ovn-trace's output: " + e.getMessage());
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new TraceException("interrupted while running ovn-trace");
        } finally {
            try {
                Files.deleteIfExists(output);
            } catch (IOException ignored) {
                // a leftover temp file is harmless
            }
        }
    }
}
