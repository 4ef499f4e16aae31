package dev.ovnj.lb;

import static dev.ovnj.lb.EngineFixture.WAIT;
import static dev.ovnj.lb.OwnedRows.OWNER;
import static dev.ovnj.lb.OwnedRows.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Every future completes within a bound: while the database is unavailable a future
 * fails with {@link SpecTimeoutException} after the request timeout, and the engine still writes
 * the spec once the database is back, without a new call.
 */
class RequestTimeoutIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    /** Slack for a loaded machine: the deadline fires on its own thread, the answer on the common pool. */
    private static final Duration SLACK = Duration.ofSeconds(4);

    private static SpecTimeoutException timeoutOf(CompletableFuture<ApplyResult> f, long startedNanos) {
        return timeoutOf(f, startedNanos, TIMEOUT);
    }

    private static SpecTimeoutException timeoutOf(CompletableFuture<ApplyResult> f, long startedNanos, Duration timeout) {
        Throwable t = catchThrowable(() -> f.get(timeout.plus(SLACK).toMillis(), TimeUnit.MILLISECONDS));
        long waitedMs = (System.nanoTime() - startedNanos) / 1_000_000;
        assertThat(t).as("the future completes within its timeout plus slack").isInstanceOf(ExecutionException.class);
        assertThat(t.getCause()).isInstanceOf(SpecTimeoutException.class);
        assertThat(waitedMs).as("not before the timeout").isGreaterThanOrEqualTo(timeout.toMillis() - 50);
        return (SpecTimeoutException) t.getCause();
    }

    @Test
    void aFrozenServerFailsTheUpsertInTimeAndTheSpecIsWrittenAfterResume() throws Exception {
        try (EngineFixture fx = new EngineFixture(b -> b.requestTimeout(TIMEOUT))) {
            fx.engine.upsert(OWNER, spec(0, 1)).get(20, TimeUnit.SECONDS);

            fx.server.pause();
            try {
                long t0 = System.nanoTime();
                CompletableFuture<ApplyResult> f = fx.engine.upsert(OWNER, spec(0, 2), UpsertOption.KEEP_DECLARED);
                SpecTimeoutException e = timeoutOf(f, t0);
                assertThat(e.owner()).isEqualTo(OWNER);
                assertThat(e.timeout()).isEqualTo(TIMEOUT);
                assertThat(e.waitingFor()).isNotBlank();
                assertThat(e.getMessage()).contains("svc-0").contains("no verdict within 2 s").contains(e.waitingFor());
                assertThat(e.statuses()).containsOnlyKeys("svc-0");
                SpecStatus then = e.statuses().get("svc-0");
                assertThat(then.state()).isIn(SpecStatus.State.PENDING, SpecStatus.State.APPLYING);
                assertThat(then.generation()).isEqualTo(2);
                assertThat(then.observedGeneration()).isEqualTo(1);
                SpecStatus now = fx.engine.status(OWNER).get("svc-0");
                assertThat(now.state()).as("not applied while frozen").isNotEqualTo(SpecStatus.State.APPLIED);
                assertThat(now.observedGeneration()).isLessThan(now.generation());
            } finally {
                fx.server.resume();
            }

            Await.until(WAIT, "version 2 applied after resume, without a new call", () -> {
                SpecStatus s = fx.engine.status(OWNER).get("svc-0");
                return s.state() == SpecStatus.State.APPLIED && s.generation() == 2 && s.observedGeneration() == 2;
            });
            assertThat(OwnedRows.rows(fx.nbctl)).isEqualTo(OwnedRows.expected(List.of(spec(0, 2))));
        }
    }

    @Test
    void aStalledLoopCannotHoldACallerPastItsTimeout() throws Exception {
        // Stall detection (1 s, checked every 500 ms) comes well before the deadline.
        Duration timeout = Duration.ofSeconds(4);
        try (EngineFixture fx = new EngineFixture(b -> b.stallTimeout(Duration.ofSeconds(1)).requestTimeout(timeout))) {
            fx.engine.upsert(OWNER, spec(0, 1)).get(20, TimeUnit.SECONDS);
            // The update this drift brings waits behind the slow reader, and the engine's next step
            // behind the update.
            SlowCacheReader slowReader = SlowCacheReader.holding(fx.client.cache());
            try {
                fx.nbctl.run("lb-del", "svc-0-tcp");
                Thread.sleep(300);
                // Declared at once; planning it then blocks the engine thread on the cache.
                long t0 = System.nanoTime();
                CompletableFuture<ApplyResult> f = fx.engine.upsert(OWNER, spec(1, 1), UpsertOption.KEEP_DECLARED);
                SpecTimeoutException e = timeoutOf(f, t0, timeout);
                assertThat(fx.engine.metrics().stalled()).isTrue();
                assertThat(e.waitingFor()).startsWith("engine loop stalled");
                assertThat(e.statuses()).containsOnlyKeys("svc-1");
                assertThat(e.statuses().get("svc-1").state().settled()).isFalse();
            } finally {
                slowReader.release();
            }
            Await.until(WAIT, "the declaration made during the stall is written, without a new call",
                    () -> OwnedRows.rows(fx.nbctl).equals(OwnedRows.expected(List.of(spec(0, 1), spec(1, 1)))));
            Await.until(WAIT, "svc-1 applied", () -> fx.engine.status(OWNER).get("svc-1") != null
                    && fx.engine.status(OWNER).get("svc-1").state() == SpecStatus.State.APPLIED);
        }
    }

    @Test
    void aStandbyFailsApplyWithTheLockAsReasonAndWritesOnceItTakesOver() throws Exception {
        try (OvsdbServer server = OvsdbServer.start(); OvsdbClient c1 = EngineCloseIT.client(server);
             OvsdbClient c2 = EngineCloseIT.client(server)) {
            Nbctl nbctl = Nbctl.of(server);
            EngineFixture.seed(nbctl);
            LoadBalancerEngine active = LoadBalancerEngine.builder(c1).lock(EngineCloseIT.LOCK).build().start();
            Await.until(WAIT, "first replica active", active::isAvailable);
            try (active; LoadBalancerEngine standby = LoadBalancerEngine.builder(c2).lock(EngineCloseIT.LOCK)
                    .requestTimeout(TIMEOUT).build().start()) {
                long t0 = System.nanoTime();
                CompletableFuture<ApplyResult> f = standby.apply(OWNER, List.of(spec(0, 1), spec(1, 1)));
                SpecTimeoutException e = timeoutOf(f, t0);
                assertThat(e.waitingFor()).isEqualTo("lock " + EngineCloseIT.LOCK + " held by another replica");
                assertThat(e.statuses()).containsOnlyKeys("svc-0", "svc-1");
                assertThat(e.statuses().values()).allSatisfy(s -> assertThat(s.state()).isEqualTo(SpecStatus.State.PENDING));
                assertThat(OwnedRows.rows(nbctl)).isEmpty();

                active.close();
                Await.until(WAIT, "both specs applied once the standby holds the lock, without a new call", () ->
                        standby.status(OWNER).values().stream().filter(s -> s.state() == SpecStatus.State.APPLIED).count() == 2);
                assertThat(OwnedRows.rows(nbctl)).isEqualTo(OwnedRows.expected(List.of(spec(0, 1), spec(1, 1))));
                assertThat(catchThrowable(f::join).getCause()).as("completed once, by the timeout").isSameAs(e);
            }
        }
    }
}
