package dev.ovnj.lb;

import static dev.ovnj.lb.EngineFixture.WAIT;
import static dev.ovnj.lb.OwnedRows.OWNER;
import static dev.ovnj.lb.OwnedRows.spec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Listeners can neither stop the engine nor be blocked by it. */
class ListenerIsolationIT {

    /** Throws from every callback. */
    static final class Thrower implements EngineListener {
        @Override
        public void onStatus(SpecStatus status) {
            throw new IllegalStateException("listener bug in onStatus");
        }

        @Override
        public void onRepair(RepairEvent event) {
            throw new IllegalStateException("listener bug in onRepair");
        }

        @Override
        public void onTransaction(int operations, Duration latency, Throwable error) {
            throw new IllegalStateException("listener bug in onTransaction");
        }

        @Override
        public void onAvailability(boolean available, String reason) {
            throw new IllegalStateException("listener bug in onAvailability");
        }
    }

    @Test
    void aListenerThatThrowsNeverStopsTheEngine() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            f.engine.addListener(new Thrower());
            f.engine.upsert(OWNER, spec(0, 1)).get(10, TimeUnit.SECONDS);
            // The next ones would hang if the first transaction's listener call had stopped the loop.
            f.engine.upsert(OWNER, spec(1, 1)).get(10, TimeUnit.SECONDS);
            f.engine.upsert(OWNER, spec(0, 2)).get(10, TimeUnit.SECONDS);

            f.nbctl.run("lb-del", "svc-1-tcp");
            Await.until(WAIT, "drift repaired", () -> OwnedRows.rows(f.nbctl).equals(OwnedRows.expected(List.of(spec(0, 2), spec(1, 1)))));
            Await.until(WAIT, "status applied again", () -> f.engine.status(OWNER).get("svc-1").state() == SpecStatus.State.APPLIED);
            assertThat(f.engine.isAvailable()).isTrue();
            assertThat(f.engine.metrics().listenerFailures()).as("every failure counted").isGreaterThanOrEqualTo(6);
        }
    }

    @Test
    void statusAndAvailabilityAnswerAtOnceFromAListener() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            List<Long> millis = new CopyOnWriteArrayList<>();
            List<Throwable> errors = new CopyOnWriteArrayList<>();
            f.engine.addListener(new EngineListener() {
                @Override
                public void onStatus(SpecStatus status) {
                    long t0 = System.nanoTime();
                    try {
                        f.engine.status(OWNER);
                        f.engine.isAvailable();
                        f.engine.metrics();
                    } catch (RuntimeException e) {
                        errors.add(e);
                    }
                    millis.add((System.nanoTime() - t0) / 1_000_000);
                }
            });
            ApplyResult r = f.engine.upsert(OWNER, spec(0, 1)).get(10, TimeUnit.SECONDS);
            assertThat(r.allApplied()).isTrue();
            Await.until(WAIT, "listener called", () -> millis.size() >= 2);
            assertThat(errors).isEmpty();
            assertThat(millis).allSatisfy(ms -> assertThat(ms).isLessThan(500));
        }
    }
}
