package dev.ovnj.lb.plan;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ovnj.lb.internal.Planner;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.monitor.UpdateBatch;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.testkit.Schemas;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/** The Northbound cache a planner test starts from: OVN's schema, the planner's indexes, the given rows. */
final class PlannerCache {
    private PlannerCache() {
    }

    /** The OVN Northbound schema bundled with testkit. */
    static DatabaseSchema schema() {
        return DatabaseSchema.parse(Schemas.ovnNorthboundJson());
    }

    /**
     * A cache replicating {@code tables}, filled with the rows of one initial monitor reply.
     *
     * @param schema the Northbound schema
     * @param tables the tables the cache holds
     * @param updates2 the reply's table updates in {@code update2} form, written with single
     *     quotes for legibility (no value may contain one)
     */
    static RowCache of(DatabaseSchema schema, List<String> tables, String updates2) throws IOException {
        RowCache cache = new RowCache();
        Planner.indexes().forEach(cache::addIndex);
        cache.replace(schema, tables,
                UpdateBatch.fromUpdates2(new ObjectMapper().readTree(updates2.replace('\'', '"')), Optional.empty()));
        return cache;
    }
}
