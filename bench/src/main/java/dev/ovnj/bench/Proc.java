package dev.ovnj.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/** CPU time and memory of processes, from {@code /proc} and the JVM's own beans. */
final class Proc {
    private static volatile long clockTick = -1;

    private Proc() {
    }

    /** Clock ticks per second ({@code getconf CLK_TCK}). */
    static long clockTick() {
        if (clockTick < 0) {
            String out = run("getconf", "CLK_TCK").trim();
            clockTick = out.isEmpty() ? 100 : Long.parseLong(out);
        }
        return clockTick;
    }

    /**
     * utime + stime of a process in seconds.
     *
     * @param pid the process
     * @return CPU seconds so far
     */
    static double cpuSeconds(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            // The command name may contain spaces; fields after it are space separated.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
            return ticks / (double) clockTick();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** CPU seconds of this JVM. */
    static double jvmCpuSeconds() {
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        return os.getProcessCpuTime() / 1e9;
    }

    /**
     * CPU seconds the JIT compiler threads of this JVM have used so far (their {@code utime} and
     * {@code stime} in {@code /proc/self/task/}*{@code /stat}, named {@code C1/C2 CompilerThre...});
     * 0 where there is no /proc. A compiler thread that ends takes its share with it, so the bench
     * runs with a fixed number of them ({@code -XX:-UseDynamicNumberOfCompilerThreads}, run.sh).
     */
    static double compilerCpuSeconds() {
        long ticks = 0;
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    if (comm.startsWith("C1 Compiler") || comm.startsWith("C2 Compiler")) {
                        // After the command name: state is field 3, utime field 14 and stime field 15.
                        String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
                        ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
                    }
                } catch (IOException | RuntimeException gone) {
                    // The thread ended while listed.
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return (double) ticks / clockTick();
    }

    /** Bytes allocated so far by the JVM's live threads (a converge's garbage, read before and after it). */
    static long allocatedBytes() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        return threads.getTotalThreadAllocatedBytes();
    }

    /**
     * The minor page faults of this JVM so far ({@code minflt} of {@code /proc/self/stat}): a
     * change that allocates in heap pages the JVM has not touched yet (or handed back to the
     * kernel) pays one fault per page, in whichever thread touches it; 0 where there is no /proc.
     */
    static long minorFaults() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            // The fields after the command name, from the state (field 3): minflt is field 10.
            return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ")[7]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /**
     * The young collections of this JVM so far (for G1, its young and mixed pauses): how many,
     * and their summed time in ms.
     */
    static long[] youngCollections() {
        long count = 0;
        long millis = 0;
        for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc.getName().contains("Young")) {
                count += Math.max(0, gc.getCollectionCount());
                millis += Math.max(0, gc.getCollectionTime());
            }
        }
        return new long[] {count, millis};
    }

    /**
     * Polls {@code counter} every 50 ms until it has not changed for {@code quietMillis}, for at
     * most {@code boundSeconds}; returns early, with the interrupt flag set, if interrupted.
     */
    static void awaitSteady(LongSupplier counter, long quietMillis, long boundSeconds) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(boundSeconds);
        long last = counter.getAsLong();
        long quietSince = System.nanoTime();
        while (System.nanoTime() < deadline && System.nanoTime() - quietSince < TimeUnit.MILLISECONDS.toNanos(quietMillis)) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            long now = counter.getAsLong();
            if (now != last) {
                last = now;
                quietSince = System.nanoTime();
            }
        }
    }

    /**
     * Waits (at most 30 s) until the threads whose names start with {@code prefix} have used no CPU
     * for 300 ms: e.g. until an engine has finished mapping a sync's events, so that a heap figure
     * counts what it retains, not the garbage it is still producing between a collection and the
     * reading.
     *
     * @param prefix thread name prefix, e.g. {@code ovnj-engine}
     */
    static void awaitThreadsQuiet(String prefix) {
        var threads = ManagementFactory.getThreadMXBean();
        awaitSteady(() -> {
            long cpu = 0;
            for (var info : threads.dumpAllThreads(false, false)) {
                if (info.getThreadName().startsWith(prefix)) {
                    cpu += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
                }
            }
            return cpu;
        }, 300, 30);
    }

    /** Resident set size of this process in MiB. */
    static double rssMb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return 0;
    }

    /** Used heap after two full collections, in bytes. */
    static long usedHeapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /**
     * Runs a command and returns its stdout (stderr goes to ours); fails on a non-zero exit.
     *
     * @param command the command
     * @return stdout
     */
    static String run(String... command) {
        return run(List.of(command), 3600);
    }

    static String run(List<String> command, long timeoutSeconds) {
        try {
            Process p = new ProcessBuilder(new ArrayList<>(command)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("timed out: " + command);
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException("exit " + p.exitValue() + ": " + command + "\n" + new String(out));
            }
            return new String(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** First line of a command's output, or "unknown". */
    static String firstLine(String... command) {
        try {
            return run(command).lines().findFirst().orElse("unknown").trim();
        } catch (RuntimeException e) {
            return "unknown";
        }
    }

    static String fmt(String pattern, Object... args) {
        return String.format(Locale.ROOT, pattern, args);
    }
}
