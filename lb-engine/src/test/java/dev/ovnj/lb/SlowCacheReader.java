package dev.ovnj.lb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.ovsdb.cache.RowCache;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Another part of the application reading the client's cache for long: while it holds the read
 * lock, the next update waits for the write lock and every new reader, the engine included, waits
 * behind that update, until {@link #release}.
 */
final class SlowCacheReader {
    private final CountDownLatch release = new CountDownLatch(1);
    private final Thread thread;

    private SlowCacheReader(RowCache cache) throws InterruptedException {
        CountDownLatch inside = new CountDownLatch(1);
        thread = new Thread(() -> cache.read(() -> {
            inside.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return null;
        }), "slow-cache-reader");
        thread.start();
        assertThat(inside.await(5, TimeUnit.SECONDS)).as("the slow reader holds the read lock").isTrue();
    }

    /**
     * Starts reading and returns once inside the read.
     *
     * @param cache the cache to hold a read of
     * @return the reader; release it to end the read
     */
    static SlowCacheReader holding(RowCache cache) throws InterruptedException {
        return new SlowCacheReader(cache);
    }

    /** Ends the read and waits for the reading thread to finish. */
    void release() throws InterruptedException {
        release.countDown();
        thread.join();
    }
}
