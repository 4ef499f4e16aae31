package dev.ovnj.micrometer;

import dev.ovnj.ovsdb.client.ClientStats;
import dev.ovnj.ovsdb.client.OvsdbClient;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.List;
import java.util.Objects;

/**
 * Binds an {@link OvsdbClient}'s connection, sync, transaction and cache figures to a registry:
 *
 * <ul>
 *   <li>{@code ovnj.client.connected} (gauge): 1 while connected and synced, else 0;</li>
 *   <li>{@code ovnj.client.connects}, {@code ovnj.client.reconnects} (counters): connections that
 *       reached SYNCED, and those after the first;</li>
 *   <li>{@code ovnj.client.syncs} (counter, {@code kind=full|resumed}): initial downloads of the
 *       monitored contents, and syncs resumed with {@code monitor_cond_since};</li>
 *   <li>{@code ovnj.client.transactions}, {@code ovnj.client.inconsistencies} (counters);</li>
 *   <li>{@code ovnj.client.cache.audits}, {@code ovnj.client.cache.divergences} (counters): cache
 *       audits that compared the cache with the server, and those that found it different
 *       (each healed by a resync);</li>
 *   <li>{@code ovnj.client.sync.last.size} (gauge, bytes) and {@code ovnj.client.cache.rows}
 *       (gauge): the latest monitor reply's size and the rows in the cache.</li>
 * </ul>
 *
 * <p>Every meter carries a {@code database} tag, the client's database ({@code OVN_Northbound},
 * {@code OVN_Southbound}), so that the meters of several clients bound to one registry stay apart
 * and every meter of a name has the same tag keys (as Prometheus requires); a {@code database}
 * tag given here replaces it. The other tags given here are added as they are.
 * The registry reads the client when it publishes; binding adds no work to the client.
 */
public final class OvsdbClientMetrics implements MeterBinder {
    // One line per counter of ClientStats: a new counter there is one more line here.
    private static final List<CounterDefinition<ClientStats>> COUNTERS = List.of(
            CounterDefinition.of("ovnj.client.connects", "connections that reached SYNCED", ClientStats::connects),
            CounterDefinition.of("ovnj.client.reconnects", "connections that reached SYNCED after the first",
                    s -> Math.max(0, s.connects() - 1)),
            CounterDefinition.of("ovnj.client.syncs", "syncs that downloaded the whole monitored contents",
                    ClientStats::fullSyncs, "kind", "full"),
            CounterDefinition.of("ovnj.client.syncs", "syncs resumed with monitor_cond_since, transferring only changes",
                    ClientStats::resumedSyncs, "kind", "resumed"),
            CounterDefinition.of("ovnj.client.transactions", "transactions committed", ClientStats::transactions),
            CounterDefinition.of("ovnj.client.inconsistencies", "updates that did not fit the cache and forced a resync",
                    ClientStats::inconsistencies),
            CounterDefinition.of("ovnj.client.cache.audits", "cache audits that compared the cache with the server",
                    ClientStats::cacheAudits),
            CounterDefinition.of("ovnj.client.cache.divergences", "cache audits that found the cache different from the server"
                    + " (each healed by a resync)", ClientStats::cacheDivergences));

    /** The tag naming the client's database on every meter. */
    public static final String DATABASE_TAG = "database";

    private final OvsdbClient client;
    private final Tags tags;

    /**
     * Binds a client's metrics.
     *
     * @param client the client
     * @param tags tags added to every meter, after {@code database=<the client's database>}
     */
    public OvsdbClientMetrics(OvsdbClient client, Iterable<Tag> tags) {
        this.client = Objects.requireNonNull(client, "client");
        this.tags = Tags.of(DATABASE_TAG, client.options().database()).and(tags);
    }

    /**
     * Binds a client's metrics, tagged with its database only.
     *
     * @param client the client
     */
    public OvsdbClientMetrics(OvsdbClient client) {
        this(client, Tags.empty());
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        COUNTERS.forEach(c -> c.register(registry, client, OvsdbClient::stats, tags));
        Gauge.builder("ovnj.client.connected", client, c -> c.isSynced() ? 1 : 0)
                .description("1 while connected and synced, else 0")
                .tags(tags)
                .register(registry);
        Gauge.builder("ovnj.client.sync.last.size", client, c -> c.stats().lastSyncBytes())
                .description("bytes of the most recent monitor reply: all contents, or only the changes when resumed")
                .baseUnit(BaseUnits.BYTES)
                .tags(tags)
                .register(registry);
        Gauge.builder("ovnj.client.cache.rows", client, c -> c.cache().size())
                .description("rows in the client's cache")
                .baseUnit("rows")
                .tags(tags)
                .register(registry);
    }
}
