package dev.ovnj.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One command run as a user runs it, measured whole: wall time from start to exit, and the CPU
 * time of the process and every process it started (bash's {@code times} after the command), so a
 * launcher script's own children and a JVM's compiler and GC threads are counted too.
 *
 * @param wallSeconds start to exit
 * @param cpuSeconds user + system time of the command and its children
 * @param exitCode the command's exit code
 * @param stdoutLines lines the command wrote to standard output
 */
record WholeProcess(double wallSeconds, double cpuSeconds, int exitCode, long stdoutLines) {
    private static final long TIMEOUT_SECONDS = 600;

    /**
     * Runs {@code command} with standard output to a scratch file and standard error to ours.
     *
     * @param command the command and its arguments
     * @return its figures
     */
    static WholeProcess run(List<String> command) {
        Path out = null;
        try {
            out = Files.createTempFile("ovnj-bench-out", ".txt");
            List<String> argv = new ArrayList<>(List.of("bash", "-c", "\"$@\" > \"$0\"; rc=$?; times; exit $rc", out.toString()));
            argv.addAll(command);
            ProcessBuilder pb = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.INHERIT);
            // ovn-nbctl would talk to a daemon instead of the database when this is set.
            pb.environment().remove("OVN_NB_DAEMON");
            // times prints with the locale's decimal separator.
            pb.environment().put("LC_NUMERIC", "C");
            long t0 = System.nanoTime();
            Process p = pb.start();
            p.getOutputStream().close();
            String times = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("timed out after " + TIMEOUT_SECONDS + " s: " + command);
            }
            double wall = Scenarios.secondsSince(t0);
            long lines;
            try (var s = Files.lines(out)) {
                lines = s.count();
            }
            return new WholeProcess(wall, childrenCpu(times), p.exitValue(), lines);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            if (out != null) {
                try {
                    Files.deleteIfExists(out);
                } catch (IOException ignored) {
                    // a scratch file in the temporary directory
                }
            }
        }
    }

    /** The second line of bash's {@code times}: the children's user and system time, e.g. {@code 0m1.234s 0m0.056s}. */
    static double childrenCpu(String times) {
        String[] lines = times.strip().split("\n");
        if (lines.length < 2) {
            throw new IllegalStateException("no times output: " + times);
        }
        return Arrays.stream(lines[lines.length - 1].trim().split("\\s+")).mapToDouble(WholeProcess::seconds).sum();
    }

    private static double seconds(String mSs) {
        int m = mSs.indexOf('m');
        return Integer.parseInt(mSs.substring(0, m)) * 60 + Double.parseDouble(mSs.substring(m + 1, mSs.length() - 1));
    }

    /** Median of a few runs' values. */
    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return Scenarios.percentile(sorted, 50);
    }
}
