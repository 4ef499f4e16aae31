package dev.ovnj.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An unexpected exception while the engine thread takes a request in (a defect, not a bad
 * argument: those throw at the call) fails that request's future at once, instead of leaving it to
 * its deadline; the step's own fence is still what logs it.
 */
class RequestFenceTest {

    @Test
    void aRequestWhoseDeclarationThrowsFailsAtOnceWithTheCause() throws Exception {
        ExecutorService engineThread = Executors.newSingleThreadExecutor();
        ScheduledExecutorService deadlines = Executors.newSingleThreadScheduledExecutor();
        ListenerBus bus = new ListenerBus();
        try {
            Waiters waiters = new Waiters(new StatusBoard(bus), new Waiters.Engine() {
                @Override
                public boolean closed() {
                    return false;
                }

                @Override
                public String unavailableReason() {
                    return null;
                }

                @Override
                public String runningStep() {
                    return "declare";
                }

                @Override
                public boolean step(String name, Runnable step) {
                    engineThread.execute(() -> {
                        try {
                            step.run();
                        } catch (RuntimeException e) {
                            // The engine loop's fence: logged, the loop carries on.
                        }
                    });
                    return true;
                }
            }, Duration.ofMinutes(10), deadlines, Runnable::run);

            Answer<ApplyResult> f = waiters.open(Request.Kind.UPSERT, "kube-dc", req -> {
                throw new ArrayIndexOutOfBoundsException("a defect");
            });

            // Well before the ten-minute deadline.
            assertThatThrownBy(() -> f.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("upsert of owner kube-dc").hasMessageContaining("a defect")
                    .hasCauseInstanceOf(ArrayIndexOutOfBoundsException.class);
            assertThat(f.isCompletedExceptionally()).isTrue();
        } finally {
            bus.close(0);
            engineThread.shutdownNow();
            deadlines.shutdownNow();
        }
    }
}
