package dev.ovnj.testkit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.internal.PlatformDependent;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;

/**
 * Readings of what a leaking client would accumulate: live threads, JDK direct buffers and
 * Netty's own direct-memory counter, plus a way to make Netty's leak detector report now.
 *
 * @param threads live threads
 * @param jdkDirectBytes bytes in the JDK's "direct" buffer pool
 * @param nettyDirectBytes Netty's direct memory counter, or -1 when Netty does not track it
 */
public record ResourceGauge(int threads, long jdkDirectBytes, long nettyDirectBytes) {

    /** Starts the hint on each deliberately leaked buffer; Netty prints it in the buffer's leak report. */
    static final String CANARY = "ovnj testkit: deliberate leak proving that leak reports are captured";

    /**
     * Takes a reading after a garbage collection.
     *
     * @return the reading
     */
    public static ResourceGauge read() {
        System.gc();
        long direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
                .filter(p -> "direct".equals(p.getName())).mapToLong(BufferPoolMXBean::getMemoryUsed).sum();
        return new ResourceGauge(ManagementFactory.getThreadMXBean().getThreadCount(), direct, PlatformDependent.usedDirectMemory());
    }

    /**
     * Netty reports a leaked buffer only when it allocates again after the leaked one was
     * collected; this collects garbage and allocates a few tracked buffers so pending reports
     * ("LEAK: ...", logged at ERROR) come out now.
     */
    public static void flushLeakReports() {
        for (int i = 0; i < 3; i++) {
            System.gc();
            for (int j = 0; j < 100; j++) {
                ByteBuf b = ByteBufAllocator.DEFAULT.directBuffer(64);
                b.release();
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * Leaks one small buffer on purpose and checks that its report reaches {@code capture}, so that
     * a later "no LEAK:" assertion cannot pass merely because reports go elsewhere. The deliberate
     * leak's report is held back: it neither stays in the capture nor reaches the build's output,
     * where it would read as a real leak. Anything else written meanwhile, a real leak's report
     * included, is passed on as usual and stays captured.
     *
     * @param capture the capture of {@code System.err}
     * @throws AssertionError when the report did not appear
     */
    public static void proveLeakReportsAreCaptured(StderrCapture capture) {
        String held = capture.divert(() -> {
            // Netty reports leaks with identical records once per JVM: the time makes each canary new.
            ByteBufAllocator.DEFAULT.directBuffer(16).touch(CANARY + " " + System.nanoTime());
            flushLeakReports();
        });
        if (!held.contains(CANARY)) {
            capture.passOn(held);
            throw new AssertionError("a deliberately leaked buffer was not reported; is the leak level PARANOID and"
                    + " Netty logging to System.err?");
        }
        capture.passOn(withoutReportOf(held, CANARY));
    }

    /** The text without the log entry (a line and its continuation lines) that mentions {@code marker}. */
    static String withoutReportOf(String text, String marker) {
        StringBuilder kept = new StringBuilder();
        StringBuilder entry = new StringBuilder();
        for (String line : text.split("(?<=\n)")) {
            if (!isContinuation(line) && entry.length() > 0) {
                keepUnlessMarked(kept, entry, marker);
            }
            entry.append(line);
        }
        keepUnlessMarked(kept, entry, marker);
        return kept.toString();
    }

    private static void keepUnlessMarked(StringBuilder kept, StringBuilder entry, String marker) {
        if (entry.indexOf(marker) < 0) {
            kept.append(entry);
        }
        entry.setLength(0);
    }

    /** Lines of a Netty leak report after its first: stack frames, record headings, the discard note. */
    private static boolean isContinuation(String line) {
        return line.startsWith("\t") || line.startsWith("Recent access records:") || line.startsWith("Created at:")
                || line.startsWith(": ") || line.matches("(?s)#\\d+:.*") || line.isBlank();
    }

    /** Makes Netty track every buffer (the PARANOID level), for the rest of this JVM. */
    public static void paranoidLeakDetection() {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    }
}
