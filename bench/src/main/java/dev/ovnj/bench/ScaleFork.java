package dev.ovnj.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One size of the scale curve measured in a JVM of its own, as JMH forks a benchmark: the harness
 * ({@link #measure}) starts this class's {@link #main} with its own JVM options and classpath, the
 * fork runs {@link ScaleScenario#scaleSize} and writes its results ({@link Results#toForkJson()}) to a
 * file, and the harness merges them into the run's results, plots and target check. See
 * {@link ScaleScenario} for why.
 */
public final class ScaleFork {
    /** A forked size that has not finished after this long is killed and reported as failed. */
    private static final long TIMEOUT_SECONDS = 1800;
    /** The file options of {@code -XX:StartFlightRecording} and {@code -Xlog}: {@code filename=...}, {@code file=...}. */
    private static final Pattern FILE_OPTION = Pattern.compile("(file(?:name)?=)([^,:]+)");

    private ScaleFork() {
    }

    /**
     * Measures one size in a fork and adds its figures to {@code results}.
     *
     * @param n the number of specs
     * @param sizes the run's sizes (the fork gets {@code scale-changes} and {@code warm-changes})
     * @param results the run's results
     * @throws IOException if the fork cannot be started or its results read
     * @throws InterruptedException if interrupted while waiting for it
     */
    static void measure(int n, Scenarios.Sizes sizes, Results results) throws IOException, InterruptedException {
        Path out = Files.createTempFile("ovnj-scale-" + Scenarios.label(n), ".json");
        try {
            List<String> command = command(n, sizes, out, ManagementFactory.getRuntimeMXBean().getInputArguments());
            // The fork's output goes straight to ours: its progress lines carry the times that
            // bench/profile.sh's PROFILE_FROM selects by.
            Process p = new ProcessBuilder(command).inheritIO().start();
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("scale " + n + ": the fork did not finish within " + TIMEOUT_SECONDS + " s");
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException("scale " + n + ": the fork exited with " + p.exitValue());
            }
            results.merge(Files.readString(out, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /**
     * The fork's command line: this JVM's java, its options (files they name get the fork's
     * suffix, so a JFR recording or GC log is not overwritten by each fork), its classpath.
     */
    static List<String> command(int n, Scenarios.Sizes sizes, Path out, List<String> jvmOptions) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        String suffix = "-scale-" + Scenarios.label(n);
        jvmOptions.forEach(o -> command.add(withSuffix(o, suffix)));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ScaleFork.class.getName(), String.valueOf(n),
                out.toString(), "scale-changes=" + sizes.get("scale-changes"), "warm-changes=" + sizes.get("warm-changes")));
        return command;
    }

    /** {@code filename=/x/profile.jfr} -> {@code filename=/x/profile-scale-1k.jfr}; other options as they are. */
    static String withSuffix(String option, String suffix) {
        Matcher m = FILE_OPTION.matcher(option);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String file = m.group(2);
            int dot = file.lastIndexOf('.');
            String named = dot > file.lastIndexOf('/') ? file.substring(0, dot) + suffix + file.substring(dot) : file + suffix;
            m.appendReplacement(sb, Matcher.quoteReplacement(m.group(1) + named));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    /**
     * The fork: measures one size and writes its results; exits non-zero if it cannot.
     *
     * @param args the number of specs, the results file, then size assignments ({@code scale-changes=3000})
     */
    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        Path out = Path.of(args[1]);
        Scenarios.Sizes sizes = Scenarios.Sizes.full();
        for (int i = 2; i < args.length; i++) {
            sizes = sizes.with(args[i]);
        }
        // Not echoed: the harness prints the values as it merges them.
        Results results = new Results(Scenarios.machine());
        try {
            new ScaleScenario(new Scenarios(sizes, results, Path.of("bench/peers"))).scaleSize(n);
            Files.writeString(out, results.toForkJson(), StandardCharsets.UTF_8);
        } catch (Throwable e) {
            // Exit here: the engines' client threads would keep a JVM whose main thread died alive.
            e.printStackTrace();
            System.exit(1);
        }
        // The closed engines' client threads must not keep the fork alive.
        System.exit(0);
    }
}
