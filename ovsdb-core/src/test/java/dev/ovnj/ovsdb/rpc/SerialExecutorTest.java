package dev.ovnj.ovsdb.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SerialExecutorTest {

    @Test
    void runsTasksInOrderOneAtATimeOnAPool() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            SerialExecutor serial = new SerialExecutor(pool);
            List<Integer> seen = new CopyOnWriteArrayList<>();
            AtomicInteger running = new AtomicInteger();
            AtomicInteger maxRunning = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(1000);
            IntStream.range(0, 1000).forEach(i -> serial.execute(() -> {
                maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
                seen.add(i);
                running.decrementAndGet();
                done.countDown();
            }));
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(seen).containsExactlyElementsOf(IntStream.range(0, 1000).boxed().toList());
            assertThat(maxRunning.get()).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aFailingTaskDoesNotStopLaterOnes() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            SerialExecutor serial = new SerialExecutor(pool);
            CountDownLatch later = new CountDownLatch(1);
            serial.execute(() -> {
                throw new IllegalStateException("boom");
            });
            serial.execute(later::countDown);
            assertThat(later.await(10, TimeUnit.SECONDS)).isTrue();
        } finally {
            pool.shutdownNow();
        }
    }
}
