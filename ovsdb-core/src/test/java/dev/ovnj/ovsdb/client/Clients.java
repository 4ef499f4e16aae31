package dev.ovnj.ovsdb.client;

import dev.ovnj.ovsdb.cache.CacheEvent;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.testkit.Await;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/** Shared helpers for client integration tests. */
final class Clients {
    static final Duration WAIT = Duration.ofSeconds(20);

    private Clients() {
    }

    static OvsdbClient connect(String remotes) {
        return OvsdbClient.builder().remotes(remotes).build().startAndWait(WAIT);
    }

    static Optional<Row> byName(OvsdbClient c, String table, String name) {
        return c.cache().table(table).rows().stream().filter(r -> name.equals(r.get("name"))).findFirst();
    }

    static void awaitRow(OvsdbClient c, String table, String name) {
        Await.until(WAIT, table + " " + name + " in the cache", () -> byName(c, table, name).isPresent());
    }

    /** Records connection events for assertions. */
    static final class EventLog implements ConnectionListener {
        final List<ConnectionEvent> events = new CopyOnWriteArrayList<>();

        @Override
        public void onEvent(ConnectionEvent event) {
            events.add(event);
        }

        long count(ConnectionEvent.Kind kind) {
            return events.stream().filter(e -> e.kind() == kind).count();
        }
    }

    /** Records cache events. */
    static final class CacheLog {
        final List<CacheEvent> events = new CopyOnWriteArrayList<>();
    }
}
