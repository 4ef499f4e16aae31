package dev.ovnj.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufAllocator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The leak-report canary: its own report must not reach the build's output (where it read as a
 * real leak), and a real leak reported while it is flushed must stay visible.
 */
class ResourceGaugeTest {
    private final ByteArrayOutputStream buildOutput = new ByteArrayOutputStream();
    private PrintStream originalErr;

    @BeforeEach
    void redirectStderr() {
        originalErr = System.err;
        System.setErr(new PrintStream(buildOutput, true, StandardCharsets.UTF_8));
        ResourceGauge.paranoidLeakDetection();
    }

    @AfterEach
    void restoreStderr() {
        System.setErr(originalErr);
    }

    @Test
    void theCanarysReportIsNeitherPrintedNorCaptured() {
        try (StderrCapture capture = StderrCapture.start()) {
            System.err.println("before");
            ResourceGauge.proveLeakReportsAreCaptured(capture);
            assertThat(capture.text()).contains("before").doesNotContain("LEAK:");
        }
        assertThat(buildOutput.toString(StandardCharsets.UTF_8)).contains("before").doesNotContain("LEAK:");
    }

    @Test
    void aRealLeakReportedDuringTheProofStaysCapturedAndPrinted() {
        try (StderrCapture capture = StderrCapture.start()) {
            leakOne();
            ResourceGauge.proveLeakReportsAreCaptured(capture);
            ResourceGauge.flushLeakReports();
            assertThat(capture.text()).contains("LEAK:").contains("leakOne").doesNotContain(ResourceGauge.CANARY);
        }
        assertThat(buildOutput.toString(StandardCharsets.UTF_8)).contains("LEAK:").doesNotContain(ResourceGauge.CANARY);
    }

    @Test
    void onlyTheMarkedEntryIsLeftOut() {
        String text = "12:00:00.000 [main] INFO a - first\n"
                + "12:00:00.001 [main] ERROR io.netty.util.ResourceLeakDetector - LEAK: one\n"
                + "Recent access records: \n#1:\n\tHint: canary 1\n\tx.y(Z.java:1)\nCreated at:\n\tx.y(Z.java:2)\n"
                + "12:00:00.002 [main] ERROR io.netty.util.ResourceLeakDetector - LEAK: two\n"
                + "Recent access records: \nCreated at:\n\tx.real(Z.java:3)\n"
                + "12:00:00.003 [main] INFO a - last\n";
        assertThat(ResourceGauge.withoutReportOf(text, "canary"))
                .isEqualTo("12:00:00.000 [main] INFO a - first\n"
                        + "12:00:00.002 [main] ERROR io.netty.util.ResourceLeakDetector - LEAK: two\n"
                        + "Recent access records: \nCreated at:\n\tx.real(Z.java:3)\n"
                        + "12:00:00.003 [main] INFO a - last\n");
    }

    private static void leakOne() {
        ByteBufAllocator.DEFAULT.directBuffer(8);
    }
}
