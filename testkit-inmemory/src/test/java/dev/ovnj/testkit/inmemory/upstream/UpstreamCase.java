package dev.ovnj.testkit.inmemory.upstream;

import java.util.List;

/**
 * A test case from Open vSwitch's OVSDB suites that runs against a server over a socket with
 * the installed OVS tools, and what upstream expects it to print.
 */
sealed interface UpstreamCase {
    /** Where the case is: file, line, title. */
    String where();

    /** What upstream's test expects on standard output, after its filters. */
    String expected();

    /**
     * {@code OVSDB_CHECK_EXECUTION} (and {@code _RO}, on a read-only database): each transaction
     * through {@code ovsdb-client transact}.
     */
    record Execution(String where, String schema, List<String> transactions, String expected, boolean readOnly)
            implements UpstreamCase {
    }

    /**
     * {@code OVSDB_CHECK_MONITOR} and {@code OVSDB_CHECK_MONITOR_COND}: {@code ovsdb-client
     * monitor} (or {@code monitor-cond} with {@code condition}, then each of
     * {@code conditionChanges} through {@code ovsdb-client/cond_change}) prints CSV while the
     * transactions run.
     */
    record Monitor(String where, String schema, List<String> before, String db, String table, List<String> columns,
            List<String> transactions, String condition, List<String> conditionChanges, String expected)
            implements UpstreamCase {
    }

    /**
     * {@code OVSDB_CHECK_POSITIVE} with {@code test-ovsdb evaluate-conditions} (or
     * {@code -any}): which of {@code rows} each of {@code conditions} matches, all clauses ANDed
     * (as a transaction's where) or any clause (as a monitor condition). Over a socket: the rows
     * are inserted, then each condition is a {@code select} (every) or the initial rows of a
     * {@code monitor_cond} (any).
     */
    record Conditions(String where, String tableSchema, List<String> conditions, List<String> rows, boolean any,
            String expected) implements UpstreamCase {
    }

    /**
     * {@code OVSDB_CHECK_POSITIVE} with {@code test-ovsdb execute-mutations}: each set of
     * mutations applied to each of {@code rows}, printing the changed columns or the error. Over
     * a socket: one transaction per set and row that inserts the row, selects it, mutates it,
     * selects it again and aborts.
     */
    record Mutations(String where, String tableSchema, List<String> mutationSets, List<String> rows, String expected)
            implements UpstreamCase {
    }

    /**
     * The OVS Python IDL ({@code test-ovsdb.py idl}) runs the shell words {@code commands}
     * against the server after {@code before} (shell words for {@code ovsdb-client transact});
     * its sorted output goes through {@code uuidfilt} (when {@code filterUuids}) and {@code filter}.
     * {@code stderrMustContain}, when not empty, is text the IDL must log. {@code cCommand}, when
     * not empty, makes it a case of OVS's C driver {@code test-ovsdb} (e.g.
     * {@code idl-partial-update-map-column}), which takes the remote without a schema; only
     * ovnj's {@code scripts/test-ovsdb} runs those.
     */
    record Idl(String where, String before, String commands, String expected, String filter, boolean filterUuids,
            String stderrMustContain, String cCommand) implements UpstreamCase {
        Idl(String where, String before, String commands, String expected, String filter, boolean filterUuids,
                String stderrMustContain) {
            this(where, before, commands, expected, filter, filterUuids, stderrMustContain, "");
        }
    }
}
