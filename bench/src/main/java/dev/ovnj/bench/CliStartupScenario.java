package dev.ovnj.bench;

import java.util.List;

/**
 * The {@code cli-startup} scenario: the CPU and wall time of {@code ovnj version}, the command
 * that does least, as a user runs it (the {@code ./ovnj} launcher: its up-to-date check and the
 * JVM); and the same command as a bare {@code java -jar ovnj.jar version}, to separate the
 * launcher's share from the JVM's. Target (issue 33): under 0.3 s of CPU.
 */
final class CliStartupScenario {
    static final String NAME = "cli-startup";
    private static final int RUNS = 5;

    private CliStartupScenario() {
    }

    static void run(Results results) {
        // Builds the jar (and its class-data archive) when missing or stale; not measured.
        check(WholeProcess.run(List.of(launcher(), "version")), "ovnj version", 1);
        measure(results, "ovnj", List.of(launcher(), "version"));
        measure(results, "java-jar", List.of(java(), "-jar", CliStatusScenario.root().resolve("cli/target/ovnj.jar").toString(),
                "version"));
    }

    private static void measure(Results results, String client, List<String> command) {
        double[] wall = new double[RUNS];
        double[] cpu = new double[RUNS];
        for (int k = 0; k < RUNS; k++) {
            WholeProcess p = check(WholeProcess.run(command), String.join(" ", command), 1);
            wall[k] = p.wallSeconds();
            cpu[k] = p.cpuSeconds();
        }
        results.add(NAME, client, "wall_s", WholeProcess.median(wall));
        results.add(NAME, client, "cpu_s", WholeProcess.median(cpu));
    }

    /** The {@code ./ovnj} launcher of this checkout. */
    static String launcher() {
        return CliStatusScenario.root().resolve("ovnj").toString();
    }

    private static String java() {
        return java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Fails unless the command exited 0 and printed at least {@code minLines} lines. */
    static WholeProcess check(WholeProcess p, String what, long minLines) {
        Scenarios.check(p.exitCode() == 0, what + " exited " + p.exitCode());
        Scenarios.check(p.stdoutLines() >= minLines, what + " printed " + p.stdoutLines() + " lines, expected at least " + minLines);
        return p;
    }
}
