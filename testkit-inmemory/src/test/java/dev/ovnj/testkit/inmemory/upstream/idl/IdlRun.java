package dev.ovnj.testkit.inmemory.upstream.idl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.ovnj.ovsdb.Futures;
import dev.ovnj.ovsdb.cache.CacheEvent;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.client.Remote;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.monitor.TableMonitor;
import dev.ovnj.ovsdb.schema.ColumnSchema;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.schema.TableSchema;
import dev.ovnj.ovsdb.tx.Condition;
import dev.ovnj.ovsdb.tx.OperationResult;
import dev.ovnj.ovsdb.tx.Transaction;
import dev.ovnj.ovsdb.tx.TransactionException;
import dev.ovnj.ovsdb.tx.TransactionResult;
import dev.ovnj.testkit.fault.FaultProxy;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * {@code test-ovsdb idl SCHEMA REMOTE [track-notify] [?TABLE:COLUMN,...] STEP...} with ovnj's
 * client: the steps of OVS's {@code tests/test-ovsdb.py} (a JSON transaction sent on a second
 * connection, a write through the IDL, {@code condition TABLE COND;...}, {@code reconnect}, with
 * the prefixes {@code ?} terse, {@code +} do not wait for a change, {@code ^} wait for the
 * condition change to be acknowledged), printing what that driver prints.
 */
final class IdlRun {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern UUID_TEXT = Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    /** Raised for what test-ovsdb.py reports on standard error before exiting with 1. */
    static final class Failure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Failure(String message) {
            super(message);
        }
    }

    private final PrintStream out;
    private final PrintStream err;
    private final Duration timeout;
    private final DatabaseSchema schema;
    private final String remote;
    private final IdlView view = new IdlView();
    private final Map<String, Set<String>> registered = new LinkedHashMap<>();
    private final Map<String, JsonNode> conditions = new HashMap<>();
    private final Map<String, String> symtab = new LinkedHashMap<>();
    private final IdltestRows printer;
    private boolean trackNotify;
    private int step;
    private OvsdbClient idl;
    private OvsdbClient writer;
    private boolean writerStarted;
    private FaultProxy proxy;
    private CompletableFuture<Void> pendingConditions = CompletableFuture.completedFuture(null);

    IdlRun(DatabaseSchema schema, String remote, Duration timeout, PrintStream out, PrintStream err) {
        this.schema = schema;
        this.remote = remote;
        this.timeout = timeout;
        this.out = out;
        this.err = err;
        this.printer = new IdltestRows(schema, registered, view);
    }

    void run(List<String> args) throws InterruptedException {
        List<String> commands = new ArrayList<>(args);
        if (!commands.isEmpty() && commands.get(0).equals("track-notify")) {
            commands.remove(0);
            trackNotify = true;
        }
        if (!commands.isEmpty() && commands.get(0).startsWith("?")) {
            register(commands.remove(0));
        } else {
            schema.tables().forEach((name, t) -> registered.put(name, columnNames(t)));
        }
        if (trackNotify && registered.containsKey("simple")) {
            view.notify(this::printNotification);
        }
        if (!commands.isEmpty() && commands.get(0).contains("condition")) {
            conditions(commands.remove(0), false);
            step++;
        }
        try {
            start(commands.stream().anyMatch(c -> c.replaceFirst("^[?+^]+", "").equals("reconnect")));
            runSteps(commands);
        } finally {
            if (writer != null) {
                writer.closeBeforeExit();
            }
            if (idl != null) {
                idl.closeBeforeExit();
            }
            if (proxy != null) {
                proxy.close();
            }
        }
        out.printf("%03d: done%n", step);
    }

    private static Set<String> columnNames(TableSchema t) {
        Set<String> names = new LinkedHashSet<>();
        t.columns().stream().map(ColumnSchema::name).filter(n -> !n.startsWith("_")).forEach(names::add);
        return names;
    }

    /** {@code ?TABLE:COL,COL?TABLE:...}: only these tables and columns ({@code COL!}, read on demand, is Python-only). */
    private void register(String spec) {
        for (String part : spec.substring(1).split("\\?")) {
            String[] tc = part.split(":", 2);
            Set<String> cols = new LinkedHashSet<>();
            for (String c : tc[1].split(",")) {
                if (c.endsWith("!")) {
                    throw new Failure("column " + tc[0] + "." + c + ": on-demand columns (Row.fetch) are an API of the Python IDL only");
                }
                cols.add(c);
            }
            schema.table(tc[0]);
            registered.put(tc[0], cols);
        }
    }

    private MonitorRequest monitorRequest() {
        List<TableMonitor> tables = new ArrayList<>();
        registered.forEach((table, cols) -> {
            TableMonitor t = TableMonitor.all(table).columns(cols.toArray(String[]::new));
            JsonNode cond = conditions.get(table);
            if (cond != null) {
                t = t.where(JsonConditions.parse(schema.table(table), cond).toArray(Condition[]::new));
            }
            tables.add(t);
        });
        return MonitorRequest.of(tables.toArray(TableMonitor[]::new));
    }

    private void start(boolean reconnects) {
        String idlRemote = remote;
        List<Remote> remotes = Remote.parseList(remote);
        if (reconnects && remotes.size() == 1 && remotes.get(0).kind() == Remote.Kind.TCP) {
            // "reconnect" drops the IDL's connection, as Idl.force_reconnect() does: ovnj's client
            // then reconnects by itself, as after any lost connection.
            proxy = FaultProxy.start(remotes.get(0).host(), remotes.get(0).port());
            idlRemote = proxy.remote();
        }
        idl = OvsdbClient.builder().remotes(idlRemote).database(schema.name()).leaderOnly(false)
                .monitor(monitorRequest()).backoff(Duration.ofMillis(10), Duration.ofMillis(100)).build();
        idl.cache().addListener(view::onEvents);
        idl.addConnectionListener(view::onConnection);
        idl.start();
        // The JSON transactions go on a connection of their own, as test-ovsdb.py's do.
        writer = OvsdbClient.builder().remotes(remote).database(schema.name()).leaderOnly(false)
                .monitor(MonitorRequest.of()).build();
    }

    private void runSteps(List<String> commands) throws InterruptedException {
        long seqno = 0;
        for (String c : commands) {
            String command = c;
            boolean terse = false;
            if (command.startsWith("?")) {
                terse = true;
                command = command.substring(1);
            }
            if (command.startsWith("+")) {
                command = command.substring(1);
            } else if (command.startsWith("^")) {
                command = command.substring(1);
                long end = System.nanoTime() + timeout.toNanos();
                while (!pendingConditions.isDone() && !view.runAfterWait(20)) {
                    if (System.nanoTime() > end) {
                        throw new Failure("the condition change was not acknowledged within " + timeout.toSeconds() + " s");
                    }
                }
            } else {
                awaitChange(seqno);
                print(terse);
            }
            seqno = view.changeSeqno();
            if (command.equals("reconnect")) {
                out.printf("%03d: reconnect%n", step++);
                if (proxy == null) {
                    throw new Failure("reconnect needs a single tcp: remote");
                }
                proxy.resetAll();
            } else if (command.contains("condition")) {
                conditions(command, true);
                step++;
            } else if (!command.startsWith("[")) {
                if (!new IdlStep(this).run(command)) {
                    seqno = 0;
                }
                step++;
            } else {
                transact(command);
            }
        }
        writer.closeBeforeExit();
        awaitChange(seqno);
        print(false);
    }

    /** {@code while idl.change_seqno == seqno and not idl.run()}: bounded by the run's timeout. */
    void awaitChange(long seqno) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (view.changeSeqno() == seqno && !view.runAfterWait(20)) {
            if (System.nanoTime() > end) {
                throw new Failure("the IDL saw no change within " + timeout.toSeconds() + " s");
            }
        }
    }

    private void print(boolean terse) {
        printer.print(step, terse).forEach(out::println);
        out.flush();
        step++;
    }

    /** {@code condition TABLE COND;TABLE COND...}: one monitor_cond_change for the tables whose condition changes. */
    private void conditions(String command, boolean connected) {
        List<TableMonitor> changes = new ArrayList<>();
        for (String part : command.substring("condition ".length()).split(";")) {
            String[] words = part.split(" ");
            if (words.length != 2) {
                throw new Failure("Error parsing condition " + part);
            }
            String table = words[0];
            JsonNode cond = parse(words[1]);
            if (cond.isArray() && cond.isEmpty()) {
                cond = JsonNodeFactory.instance.arrayNode().add(false);
            }
            JsonNode latest = conditions.getOrDefault(table, JsonNodeFactory.instance.arrayNode().add(true));
            boolean unchanged = latest.equals(cond) && pendingConditions.isDone();
            conditions.put(table, cond);
            if (!latest.equals(cond)) {
                changes.add(TableMonitor.all(table).where(JsonConditions.parse(schema.table(table), cond).toArray(Condition[]::new)));
            }
            out.printf("%03d: %s: %s%n", step, table, unchanged ? "conditions unchanged" : "change conditions");
        }
        out.flush();
        if (connected && !changes.isEmpty()) {
            pendingConditions = idl.changeConditions(changes.toArray(TableMonitor[]::new));
        }
    }

    /** A JSON transaction on the second connection; its reply printed, its UUIDs numbered #0#, #1#... */
    private void transact(String command) {
        JsonNode json = parse(command);
        if (json.isTextual()) {
            throw new Failure("\"" + command + "\": " + json.asText());
        }
        JsonNode params = substitute(json);
        if (!writerStarted) {
            writer.startAndWait(timeout);
            writerStarted = true;
        }
        JsonNode result;
        try {
            result = writer.call("transact", (ArrayNode) params).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new Failure("jsonrpc transaction failed: " + Futures.unwrap(e).getMessage());
        }
        out.printf("%03d: ", step++);
        collectUuids(result);
        ObjectNode reply = JsonNodeFactory.instance.objectNode();
        reply.putNull("error");
        reply.set("result", result);
        out.println(PyText.json(reply));
        out.flush();
    }

    private JsonNode substitute(JsonNode json) {
        if (json.isTextual() && symtab.containsKey(json.asText())) {
            return TextNode.valueOf(symtab.get(json.asText()));
        }
        if (json.isArray()) {
            ArrayNode a = JsonNodeFactory.instance.arrayNode();
            json.forEach(e -> a.add(substitute(e)));
            return a;
        }
        if (json.isObject()) {
            ObjectNode o = JsonNodeFactory.instance.objectNode();
            json.fields().forEachRemaining(e -> o.set(e.getKey(), substitute(e.getValue())));
            return o;
        }
        return json;
    }

    private void collectUuids(JsonNode json) {
        if (json.isTextual() && UUID_TEXT.matcher(json.asText()).matches()) {
            String name = "#" + symtab.size() + "#";
            err.println(name + " = " + json.asText());
            symtab.put(name, json.asText());
        } else if (json.isContainerNode()) {
            json.forEach(this::collectUuids);
        }
    }

    static JsonNode parse(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new Failure("\"" + text + "\": " + e.getMessage());
        }
    }

    // --- what IdlStep needs ---

    int step() {
        return step;
    }

    PrintStream out() {
        return out;
    }

    IdlView view() {
        return view;
    }

    DatabaseSchema schema() {
        return schema;
    }

    /** Commits through ovnj's client and runs the view, as commit_block runs the IDL. */
    Optional<TransactionResult> commit(Transaction tx, StringBuilder status) {
        try {
            TransactionResult r = idl.transactAndWait(tx, timeout);
            status.append("success");
            return Optional.of(r);
        } catch (TransactionException e) {
            if (e.error().equals("timed out")) {
                status.append("try again");
            } else {
                err.println("transaction error: " + e.getMessage());
                status.append("error");
            }
        } catch (RuntimeException e) {
            err.println("transaction failed: " + e);
            status.append("try again");
        } finally {
            view.run();
        }
        return Optional.empty();
    }

    static long selected(TransactionResult r, int index, String column) {
        OperationResult.Selected s = (OperationResult.Selected) r.get(index);
        return (Long) s.rows().get(0).get(column);
    }

    /** The notify hook of the Python driver's track-notify mode. */
    private void printNotification(CacheEvent e) {
        Row row = e instanceof CacheEvent.Deleted d ? d.oldRow() : e instanceof CacheEvent.Updated u ? u.newRow()
                : ((CacheEvent.Inserted) e).row();
        List<String> columns = new ArrayList<>(IdltestRows.PRINTED.get("simple"));
        columns.add("l2");
        columns.add("l1");
        String event = e instanceof CacheEvent.Inserted ? "create" : e instanceof CacheEvent.Updated ? "update" : "delete";
        String updates = "None";
        if (e instanceof CacheEvent.Updated u) {
            updates = "{" + printer.simple(e.table(), u.oldRow(), changedColumns(u, IdltestRows.PRINTED.get("simple"))) + "}";
        }
        out.printf("%03d: event:%s, row={%s}, %s, updates=%s%n", step, event,
                printer.simple(e.table(), row, present(row, columns)), printer.uuid(row), updates);
        out.flush();
    }

    static List<String> present(Row row, List<String> columns) {
        return columns.stream().filter(c -> row.table().findColumn(c).isPresent()).toList();
    }

    /** The columns an update changed (what the Python IDL's {@code updates} row holds). */
    static List<String> changedColumns(CacheEvent.Updated u, List<String> among) {
        return present(u.newRow(), among).stream()
                .filter(c -> !java.util.Objects.equals(u.oldRow().get(c), u.newRow().get(c))).toList();
    }
}
