package dev.ovnj.testkit.inmemory.upstream.idl;

import dev.ovnj.ovsdb.cache.CacheEvent;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.tx.Transaction;
import dev.ovnj.ovsdb.tx.TransactionResult;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * One write step of test-ovsdb.py ({@code idl_set}): comma-separated commands on the rows the
 * IDL sees, committed as one transaction through ovnj's client, printed as
 * {@code NNN: commit, status=...} (with {@code increment=} and the {@code notifytest} events).
 */
final class IdlStep {
    private final IdlRun run;
    private final IdlView view;
    private final IdlWrites txn;
    private final List<String> events = new ArrayList<>();
    private int notifyWanted;

    IdlStep(IdlRun run) {
        this.run = run;
        this.view = run.view();
        this.txn = new IdlWrites(run.schema(), view);
    }

    /** @return false when the commit failed with an error, as idl_set returns */
    boolean run(String commands) {
        boolean increment = false;
        boolean aborted = false;
        for (String command : commands.split(",")) {
            List<String> words = new ArrayList<>(List.of(command.trim().split("\\s+")));
            String name = words.remove(0);
            if (name.equals("notifytest")) {
                notifyWanted++;
                name = words.remove(0);
            }
            List<String> args = words;
            switch (name) {
                case "set" -> {
                    need(args, 3, "set");
                    long i = Long.parseLong(args.get(0));
                    UUID row = txn.inserted("simple", "i", i).orElseGet(() -> simple(args.get(0), "set").uuid());
                    String value = args.get(2);
                    Object v = switch (args.get(1)) {
                        case "b" -> value.equals("1");
                        // The shell's bytes, as test-ovsdb.py decodes them (surrogateescape, then UTF-8 with replacement).
                        case "s" -> new String(value.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
                        case "u" -> UUID.fromString(value);
                        case "r" -> Double.parseDouble(value);
                        default -> throw new IdlRun.Failure("\"set\" comamnd asks for unknown column " + args.get(1));
                    };
                    txn.set("simple", row, args.get(1), v);
                }
                case "insert" -> {
                    need(args, 1, "set");
                    UUID row = txn.insert("simple", Optional.empty());
                    txn.set("simple", row, "i", Long.parseLong(args.get(0)));
                }
                case "insert_uuid" -> {
                    need(args, 2, "set");
                    UUID row = txn.insert("simple", Optional.of(UUID.fromString(args.get(0))));
                    txn.set("simple", row, "i", Long.parseLong(args.get(1)));
                }
                case "delete" -> {
                    need(args, 1, "delete");
                    txn.delete("simple", simple(args.get(0), "delete"));
                }
                case "verify" -> {
                    need(args, 2, "verify");
                    if (txn.inserted("simple", "i", Long.parseLong(args.get(0))).isPresent()) {
                        continue;
                    }
                    Row s = simple(args.get(0), "verify");
                    if (!Set.of("i", "b", "s", "u", "r").contains(args.get(1))) {
                        throw new IdlRun.Failure("\"verify\" command asks for unknown column \"" + args.get(1) + "\"");
                    }
                    txn.verify("simple", s, args.get(1));
                }
                case "increment" -> {
                    need(args, 1, "increment");
                    txn.increment("simple", simple(args.get(0), "set"), "i");
                    increment = true;
                }
                case "abort" -> aborted = true;
                case "destroy" -> {
                    run.out().printf("%03d: destroy%n", run.step());
                    run.out().flush();
                    return true;
                }
                case "linktest" -> {
                    UUID l0 = txn.insert("link1", Optional.empty());
                    txn.set("link1", l0, "i", 1L);
                    txn.set("link1", l0, "k", l0);
                    txn.set("link1", l0, "ka", Set.of(l0));
                    UUID l1 = txn.insert("link1", Optional.empty());
                    txn.set("link1", l1, "i", 2L);
                    txn.set("link1", l1, "k", l0);
                    txn.set("link1", l1, "ka", Set.of(l0, l1));
                }
                case "getattrtest" -> {
                    UUID l = txn.insert("link1", Optional.empty());
                    txn.set("link1", l, "i", 2L);
                    txn.set("link1", l, "k", l);
                }
                case "partialmapinsertelement" -> {
                    UUID row = find("simple2", "name", "myString1");
                    txn.add("simple2", row, "smap", "key1", "myList1");
                    txn.add("simple2", row, "imap", 3L, "myids2");
                    txn.set("simple2", row, "name", "String2");
                }
                case "partialmapinsertmultipleelements" -> {
                    UUID row = find("simple2", "name", "String2");
                    txn.add("simple2", row, "smap", "key2", "myList2");
                    txn.add("simple2", row, "smap", "key3", "myList3");
                    txn.add("simple2", row, "smap", "key4", "myList4");
                }
                case "partialmapdelelements" -> {
                    UUID row = find("simple2", "name", "String2");
                    txn.remove("simple2", row, "smap", "key1", "myList1");
                    txn.remove("simple2", row, "smap", "key2", "wrongvalue");
                    txn.remove("simple2", row, "smap", "key3", null);
                    txn.remove("simple2", row, "smap", "key4", null);
                }
                case "partialmapmutatenew" -> {
                    UUID row = txn.insert("simple2", Optional.empty());
                    txn.set("simple2", row, "name", "String2New");
                    txn.add("simple2", row, "smap", "key1", "newList1");
                    txn.add("simple2", row, "smap", "key2", "newList2");
                }
                case "partialrenamesetadd" -> {
                    UUID row = find("simple3", "name", "mySet1");
                    txn.add("simple3", row, "uset", UUID.fromString("001e43d2-dd3f-4616-ab6a-83a490bb0991"), null);
                    txn.set("simple3", row, "name", "String2");
                }
                case "partialduplicateadd" -> {
                    UUID row = find("simple3", "name", "String2");
                    UUID u = UUID.fromString("0026b3ba-571b-4729-8227-d860a5210ab8");
                    txn.add("simple3", row, "uset", u, null);
                    txn.add("simple3", row, "uset", u, null);
                }
                case "partialsetdel" -> txn.remove("simple3", find("simple3", "name", "String2"), "uset",
                        UUID.fromString("001e43d2-dd3f-4616-ab6a-83a490bb0991"), null);
                case "partialsetref" -> {
                    UUID added = txn.insert("simple4", Optional.empty());
                    txn.set("simple4", added, "name", "test");
                    txn.add("simple3", find("simple3", "name", "String2"), "uref", added, null);
                }
                case "partialsetoverrideops" -> {
                    UUID row = find("simple3", "name", "String2");
                    UUID kept = UUID.fromString("0026b3ba-571b-4729-8227-d860a5210ab8");
                    txn.add("simple3", row, "uset", UUID.fromString("579e978d-776c-4f19-a225-268e5890e670"), null);
                    txn.remove("simple3", row, "uset", kept, null);
                    txn.set("simple3", row, "uset", Set.of(kept));
                }
                case "partialsetadddelete" -> {
                    UUID row = find("simple3", "name", "String2");
                    txn.add("simple3", row, "uset", UUID.fromString("b6272353-af9c-40b7-90fe-32a43e6518a1"), null);
                    txn.add("simple3", row, "uset", UUID.fromString("1d6a71a2-dffb-426e-b2fa-b727091f9901"), null);
                    txn.remove("simple3", row, "uset", UUID.fromString("0026b3ba-571b-4729-8227-d860a5210ab8"), null);
                }
                case "partialsetmutatenew" -> {
                    UUID row41 = txn.insert("simple4", Optional.empty());
                    txn.set("simple4", row41, "name", "new_row41");
                    UUID row3 = txn.insert("simple3", Optional.empty());
                    txn.set("simple3", row3, "name", "String3");
                    txn.add("simple3", row3, "uset", row41, null);
                }
                case "partialmapmutateirefmap" -> {
                    UUID row3 = find("simple3", "name", "myString1");
                    UUID row5 = find("simple5", "name", "myString2");
                    txn.add("simple5", row5, "irefmap", 1L, row3);
                }
                case "fetch" -> throw new IdlRun.Failure("\"fetch\": on-demand columns (Row.fetch) are an API of the Python IDL only");
                default -> throw new IdlRun.Failure("unknown command " + name);
            }
            if (aborted) {
                break;
            }
        }
        String status;
        String incremented = "";
        if (aborted) {
            status = "aborted";
        } else {
            Optional<Transaction> tx = txn.build();
            if (tx.isEmpty()) {
                status = "unchanged";
            } else {
                java.util.function.Consumer<CacheEvent> previous = notifyWanted > 0 ? view.notify(this::record) : null;
                StringBuilder s = new StringBuilder();
                Optional<TransactionResult> result;
                try {
                    result = run.commit(tx.get(), s);
                } finally {
                    if (previous != null) {
                        view.notify(previous);
                    }
                }
                status = s.toString();
                if (increment && result.isPresent()) {
                    incremented = ", increment=" + IdlRun.selected(result.get(), txn.incrementSelectIndex(tx.get()),
                            txn.incrementColumn());
                }
            }
        }
        StringBuilder line = new StringBuilder(String.format("%03d: commit, status=%s%s", run.step(), status, incremented));
        if (!events.isEmpty()) {
            line.append(", events=").append(String.join(", ", events.stream().sorted().toList()));
        }
        run.out().println(line);
        run.out().flush();
        return !status.equals("error");
    }

    /** The notifytest hook: the first events of the commit, as "event|i|first changed column". */
    private void record(CacheEvent e) {
        if (events.size() >= notifyWanted) {
            return;
        }
        if (e instanceof CacheEvent.Inserted i) {
            events.add("create|" + i.row().get("i") + "|None");
        } else if (e instanceof CacheEvent.Updated u) {
            List<String> changed = IdlRun.changedColumns(u, List.copyOf(u.newRow().table().columns().stream()
                    .map(c -> c.name()).filter(n -> !n.startsWith("_")).toList()));
            events.add("update|" + u.newRow().get("i") + "|" + (changed.isEmpty() ? "None" : changed.get(0)));
        } else {
            events.add("delete|" + ((CacheEvent.Deleted) e).oldRow().get("i") + "|None");
        }
    }

    private static void need(List<String> args, int n, String command) {
        if (args.size() != n) {
            throw new IdlRun.Failure("\"" + command + "\" command requires " + n + " argument" + (n == 1 ? "" : "s"));
        }
    }

    private Row simple(String i, String command) {
        long wanted = Long.parseLong(i);
        return view.rows("simple").stream().filter(r -> r.get("i").equals(wanted)).findFirst()
                .orElseThrow(() -> new IdlRun.Failure("\"" + command + "\" command asks for nonexistent i=" + wanted));
    }

    private UUID find(String table, String column, Object value) {
        return view.rows(table).stream().filter(r -> value.equals(r.get(column))).findFirst().map(Row::uuid)
                .orElseThrow(() -> new IdlRun.Failure("no " + table + " row with " + column + "=" + value));
    }
}
