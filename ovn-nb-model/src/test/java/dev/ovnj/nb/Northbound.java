package dev.ovnj.nb;

import dev.ovnj.nb.model.OvnNorthboundModel;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.tx.Operation;
import dev.ovnj.ovsdb.tx.TransactionResult;
import dev.ovnj.ovsdb.typed.Compatibility;
import dev.ovnj.ovsdb.typed.TypedRow;
import dev.ovnj.ovsdb.typed.TypedTable;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

/** Shared helpers for the model's integration tests. */
final class Northbound {
    static final Duration WAIT = Duration.ofSeconds(20);

    private Northbound() {
    }

    /** The schema the model was generated from: the strict check accepts servers of it (or newer). */
    static final java.nio.file.Path MODEL_SCHEMA = java.nio.file.Path.of("src/main/schema/ovn-nb.ovsschema");

    static OvsdbClient connect(String remote, Compatibility mode) {
        return OvsdbClient.builder().remotes(remote).model(OvnNorthboundModel.MODEL, mode).build().startAndWait(WAIT);
    }

    static TransactionResult transact(OvsdbClient client, Operation... operations) {
        return client.transactAndWait(client.transaction().add(operations).build(), WAIT);
    }

    static <T extends TypedRow> Optional<T> byName(TypedTable<T> table, Function<T, String> name, String wanted) {
        return table.rows().stream().filter(row -> wanted.equals(name.apply(row))).findFirst();
    }
}
