package dev.ovnj.testkit.inmemory.upstream;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The cases of the vendored OVS v3.1.0 files ({@code src/test/resources/ovs-tests-v3.1.0}):
 * those that run over a socket, and every other case with the reason it does not.
 */
final class UpstreamSuites {
    /** A case the harness does not run, and why. */
    record NotRun(String where, String macro, String reason) {
    }

    static final String FOLDER = "ovs-tests-v3.1.0";
    static final List<String> FILES = List.of("ovsdb-execution.at", "ovsdb-monitor.at", "ovsdb-idl.at",
            "ovsdb-condition.at", "ovsdb-mutation.at");

    /** The column selection OVSDB_CHECK_IDL_REGISTER_COLUMNS_PY passes to test-ovsdb.py. */
    private static final String REGISTER_COLUMNS = "?simple:b,ba,i,ia,r,ra,s,sa,u,ua?simple3:name,uset,uref?simple4:name"
            + "?simple6:name,weak_ref?link1:i,k,ka,l2?link2:i,l1?singleton:name";

    private static final String TEST_OVSDB = "needs OVS's C test binary `test-ovsdb`, which no package installs";

    private final List<UpstreamCase> runnable = new ArrayList<>();
    private final List<NotRun> notRun = new ArrayList<>();
    private final List<UpstreamCase.Idl> cIdlCases = new ArrayList<>();
    private final List<UpstreamCase.Idl> withoutMonitorCond = new ArrayList<>();
    private final List<UpstreamCase.Idl> onCluster = new ArrayList<>();

    private UpstreamSuites() {
    }

    static Path folder() {
        try {
            return Path.of(UpstreamSuites.class.getClassLoader().getResource(FOLDER).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static UpstreamSuites load() {
        UpstreamSuites s = new UpstreamSuites();
        Map<String, String> schemas = AtFile.read(folder().resolve("ovsdb-execution.at")).schemas();
        for (String file : FILES) {
            AtFile at = AtFile.read(folder().resolve(file));
            for (AtFile.Call c : at.calls()) {
                if (c.title().startsWith("$")) {
                    continue; // a call inside another macro's definition, run when that macro is
                }
                String where = file + ":" + c.line() + " " + c.title();
                s.classify(where, c, schemas);
            }
        }
        return s;
    }

    /**
     * Why ovnj's client cannot run an IDL case with {@code scripts/test-ovsdb}, if it cannot: the
     * case uses an API of the Python IDL that has no counterpart in an ovnj client.
     */
    static java.util.Optional<String> ovnjExclusion(UpstreamCase.Idl c) {
        if (c.commands().contains("'fetch ")) {
            return java.util.Optional.of("Row.fetch(): a column registered but not monitored (`?simple:i,r!`) and read on"
                    + " demand, an API of the Python IDL only; ovnj's cache holds what its monitor receives");
        }
        return java.util.Optional.empty();
    }

    List<UpstreamCase> runnable() {
        return runnable;
    }

    List<NotRun> notRun() {
        return notRun;
    }

    /**
     * ovsdb-idl.at's cases for OVS's C IDL that test what ovnj's client has, to run with
     * {@code scripts/test-ovsdb} in place of the C {@code test-ovsdb} (no Python or in-memory run).
     */
    List<UpstreamCase.Idl> cIdlCases() {
        return cIdlCases;
    }

    /**
     * The Python IDL cases to run against an ovsdb-server whose {@code monitor_cond} is turned
     * off ({@code ovs-appctl ovsdb-server/disable-monitor-cond}); ovnj's client runs them.
     */
    List<UpstreamCase.Idl> withoutMonitorCond() {
        return withoutMonitorCond;
    }

    /**
     * The {@code OVSDB_CHECK_CLUSTER_IDL} cases: the IDL on the first member of a 3-member cluster
     * (reconnects, condition changes in flight); ovnj's client runs them.
     */
    List<UpstreamCase.Idl> onCluster() {
        return onCluster;
    }

    private void classify(String where, AtFile.Call c, Map<String, String> schemas) {
        switch (c.macro()) {
            case "OVSDB_CHECK_EXECUTION" -> runnable.add(new UpstreamCase.Execution(where, schema(schemas, c.arg(2)),
                    AtFile.list(c.arg(3)), AtFile.unquote(c.arg(4)), false));
            case "OVSDB_CHECK_EXECUTION_RO" -> runnable.add(new UpstreamCase.Execution(where, schema(schemas, c.arg(2)),
                    AtFile.list(c.arg(3)), AtFile.unquote(c.arg(4)), true));
            case "OVSDB_CHECK_MONITOR" -> runnable.add(new UpstreamCase.Monitor(where, schema(schemas, c.arg(2)),
                    AtFile.list(c.arg(3)), c.arg(4).trim(), c.arg(5).trim(), words(AtFile.unquote(c.arg(8))),
                    AtFile.list(c.arg(6)), null, List.of(), AtFile.unquote(c.arg(7))));
            case "OVSDB_CHECK_MONITOR_COND" -> runnable.add(new UpstreamCase.Monitor(where, schema(schemas, c.arg(2)),
                    AtFile.list(c.arg(3)), c.arg(4).trim(), c.arg(5).trim(), words(AtFile.unquote(c.arg(9))),
                    AtFile.list(c.arg(6)), AtFile.unquote("[" + c.arg(8) + "]"), AtFile.list(c.arg(10)),
                    AtFile.unquote(c.arg(7))));
            // OVSDB_CHECK_IDL is eleven variants upstream (C, Python, unix, tcp, tcp6, SSL); the
            // Python IDL over TCP is the one a server on a port can run, the C ones need test-ovsdb.
            case "OVSDB_CHECK_IDL_PY" -> runnable.add(new UpstreamCase.Idl(where,
                    AtFile.unquote(c.arg(2)), AtFile.unquote(c.arg(3)), AtFile.unquote(c.arg(4)),
                    AtFile.unquote(c.arg(6)), true, ""));
            case "OVSDB_CHECK_IDL" -> {
                runnable.add(new UpstreamCase.Idl(where, AtFile.unquote(c.arg(2)), AtFile.unquote(c.arg(3)),
                        AtFile.unquote(c.arg(4)), AtFile.unquote(c.arg(6)), true, ""));
                // The register_columns variant monitors only some columns of each table.
                runnable.add(new UpstreamCase.Idl(where + " - register_columns", AtFile.unquote(c.arg(2)),
                        "'" + REGISTER_COLUMNS + "' " + AtFile.unquote(c.arg(3)), AtFile.unquote(c.arg(4)),
                        AtFile.unquote(c.arg(6)), true, ""));
            }
            case "OVSDB_CHECK_IDL_PY_WITH_EXPOUT" -> runnable.add(new UpstreamCase.Idl(where,
                    AtFile.unquote(c.arg(2)), AtFile.unquote(c.arg(3)), echo(AtFile.unquote(c.arg(4))),
                    AtFile.unquote(c.arg(6)), true, ""));
            case "OVSDB_CHECK_IDL_NOTIFY" -> runnable.add(new UpstreamCase.Idl(where, "", AtFile.unquote(c.arg(2)),
                    AtFile.unquote(c.arg(3)), AtFile.unquote(c.arg(5)), true, ""));
            case "OVSDB_CHECK_IDL_FETCH_COLUMNS" -> runnable.add(new UpstreamCase.Idl(where, AtFile.unquote(c.arg(2)),
                    "'" + AtFile.unquote(c.arg(3)) + "' " + AtFile.unquote(c.arg(4)), AtFile.unquote(c.arg(5)),
                    AtFile.unquote(c.arg(7)), true, ""));
            case "OVSDB_CHECK_IDL_PERS_UUID_INSERT" -> runnable.add(new UpstreamCase.Idl(where, "",
                    AtFile.unquote(c.arg(2)), AtFile.unquote(c.arg(3)), "", false,
                    AtFile.unquote(AtFile.unquote(c.arg(4))).replace("'", "")));
            case "OVSDB_CHECK_POSITIVE" -> positive(where, c);
            case "OVSDB_CHECK_NEGATIVE" -> notRun.add(new NotRun(where, c.macro(), TEST_OVSDB
                    + " (parses and evaluates conditions or mutations inside the binary, no server; the same checks"
                    + " could be written as select and mutate transactions, which this harness does not do)"));
            case "OVSDB_CHECK_IDL_PARTIAL_UPDATE_MAP_COLUMN", "OVSDB_CHECK_IDL_PARTIAL_UPDATE_SET_COLUMN" -> {
                notRun.add(new NotRun(where, c.macro(), TEST_OVSDB + " (the C IDL only; ovnj's client runs it)"));
                String command = c.macro().endsWith("MAP_COLUMN") ? "idl-partial-update-map-column" : "idl-partial-update-set-column";
                cIdlCases.add(new UpstreamCase.Idl(where + " - C", AtFile.unquote(c.arg(2)), AtFile.unquote(c.arg(3)),
                        AtFile.unquote(c.arg(4)), AtFile.unquote(c.arg(6)), true, "", command));
            }
            case "OVSDB_CHECK_IDL_C", "OVSDB_CHECK_IDL_TRACK", "OVSDB_CHECK_IDL_COMPOUND_INDEX_SINGLE_COLUMN_C",
                    "OVSDB_CHECK_IDL_COMPOUND_INDEX_DOUBLE_COLUMN_C", "OVSDB_CHECK_IDL_COMPOUND_INDEX_WITH_REF" ->
                    notRun.add(new NotRun(where, c.macro(), TEST_OVSDB + " (the C IDL only)"));
            case "OVSDB_CHECK_IDL_WO_MONITOR_COND" -> {
                notRun.add(new NotRun(where, c.macro(),
                        "turns monitor_cond off in the server with `ovs-appctl ovsdb-server/disable-monitor-cond`; the"
                                + " in-memory server has no appctl (ovnj's client runs it against ovsdb-server)"));
                withoutMonitorCond.add(new UpstreamCase.Idl(where, "", AtFile.unquote(c.arg(2)), AtFile.unquote(c.arg(3)),
                        AtFile.unquote(c.arg(5)), true, ""));
            }
            case "OVSDB_CHECK_IDL_PASSIVE_TCP_PY" -> notRun.add(new NotRun(where, c.macro(),
                    "the server connects out to the IDL (`--remote=tcp:`); the in-memory server only listens"));
            case "OVSDB_CHECK_IDL_LEADER_ONLY_PY" -> notRun.add(new NotRun(where, c.macro(),
                    "a RAFT cluster whose members are killed; the in-memory server is standalone"));
            case "OVSDB_CHECK_CLUSTER_IDL" -> {
                notRun.add(new NotRun(where, c.macro(),
                        "a 3-member RAFT cluster; the in-memory server is standalone (ovnj's client runs it against ovsdb-server)"));
                onCluster.add(new UpstreamCase.Idl(where, AtFile.unquote(c.arg(3)), AtFile.unquote(c.arg(4)),
                        AtFile.unquote(c.arg(5)), AtFile.unquote(c.arg(7)), true, ""));
            }
            case "AT_SETUP" -> notRun.add(new NotRun(where, c.macro(),
                    "a hand-written shell script (AT_SETUP ... AT_CLEANUP), not one of the macros the harness"
                            + " reads"));
            default -> throw new IllegalStateException("unclassified upstream case " + where + " (" + c.macro() + ")");
        }
    }

    /**
     * {@code test-ovsdb evaluate-conditions[-any]} and {@code execute-mutations} (TABLE, then
     * conditions or mutation sets, then rows) run over a socket; the other subcommands (parsing
     * and comparing inside the binary) do not.
     */
    private void positive(String where, AtFile.Call c) {
        List<String> words = shellWords(AtFile.unquote(c.arg(2)));
        String command = words.get(0);
        if (command.equals("evaluate-conditions") || command.equals("evaluate-conditions-any")) {
            runnable.add(new UpstreamCase.Conditions(where, words.get(1), elements(words.get(2)), elements(words.get(3)),
                    command.endsWith("-any"), AtFile.unquote(c.arg(3)) + "\n"));
        } else if (command.equals("execute-mutations")) {
            runnable.add(new UpstreamCase.Mutations(where, words.get(1), elements(words.get(2)), elements(words.get(3)),
                    AtFile.unquote(c.arg(3)) + "\n"));
        } else {
            notRun.add(new NotRun(where, c.macro() + " " + command, TEST_OVSDB + " (" + command
                    + " runs inside the binary, no server)"));
        }
    }

    private static List<String> elements(String jsonArray) {
        try {
            List<String> out = new ArrayList<>();
            new ObjectMapper().readTree(jsonArray).forEach(e -> out.add(e.toString()));
            return out;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("not a JSON array: " + jsonArray, e);
        }
    }

    /** The words the shell makes of a command line (quotes removed, backslash-newlines joined). */
    private static List<String> shellWords(String text) {
        try {
            Path tmp = java.nio.file.Files.createTempDirectory("words");
            Tools.Result r = Tools.run(tmp, Map.of(), 10, List.of("bash", "-c", "printf '%s\\0' " + text));
            java.nio.file.Files.walk(tmp).sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            return List.of(r.stdout().split("\0"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String schema(Map<String, String> schemas, String arg) {
        String name = AtFile.unquote(arg).trim();
        String json = schemas.get(name);
        if (json == null) {
            throw new IllegalStateException("no schema function " + name);
        }
        return json;
    }

    /** The expected text of a case that writes it with {@code echo "$4"}, shell expansions and all. */
    private static String echo(String text) {
        try {
            Path tmp = java.nio.file.Files.createTempDirectory("expout");
            Tools.Result r = Tools.run(tmp, Map.of(), 10, List.of("bash", "-c", "echo \"" + text + "\""));
            java.nio.file.Files.walk(tmp).sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            return r.stdout();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static List<String> words(String s) {
        // The shell's quote removal: the columns are words like "number" or '["number"]'.
        return s.isBlank() ? List.of() : List.of(s.replace("\"", "").replace("'", "").trim().split("\\s+"));
    }
}
