package dev.ovnj.ovsdb.typed;

import dev.ovnj.ovsdb.cache.CacheListener;
import dev.ovnj.ovsdb.cache.RowCache;

/** A listener registered on a {@link RowCache}; closing it unregisters the listener. */
public final class Subscription implements AutoCloseable {

    private final RowCache cache;
    private final CacheListener listener;

    Subscription(RowCache cache, CacheListener listener) {
        this.cache = cache;
        this.listener = listener;
    }

    /** Unregisters the listener; batches applied afterwards are not delivered to it. */
    @Override
    public void close() {
        cache.removeListener(listener);
    }
}
