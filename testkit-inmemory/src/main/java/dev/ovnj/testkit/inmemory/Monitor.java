package dev.ovnj.testkit.inmemory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One monitor of a session: per table the monitored columns with their "select" flags and, for
 * monitor_cond and later, a condition. Composes "update" (version 1) or "update2"/"update3"
 * (versions 2 and 3) row updates exactly as ovsdb-server's monitor.c decides them.
 */
final class Monitor {
    static final int INITIAL = 1;
    static final int INSERT = 2;
    static final int DELETE = 4;
    static final int MODIFY = 8;
    static final int ALL = INITIAL | INSERT | DELETE | MODIFY;

    /** One monitored table. */
    static final class TableMonitor {
        final TableSchema table;
        final List<Integer> columns = new ArrayList<>();
        final List<Integer> columnSelect = new ArrayList<>();
        int select;
        Where condition = Where.ALWAYS;

        TableMonitor(TableSchema table) {
            this.table = table;
        }
    }

    final JsonNode id;
    final int version;
    final Database db;
    final Map<String, TableMonitor> tables;

    Monitor(JsonNode id, int version, Database db, Map<String, TableMonitor> tables) {
        this.id = id;
        this.version = version;
        this.db = db;
        this.tables = tables;
    }

    /** The initial contents, as a table-updates object (empty tables omitted). */
    ObjectNode initial() {
        ObjectNode out = JsonTrees.object();
        tables.forEach((name, tm) -> {
            ObjectNode rows = JsonTrees.object();
            db.rows(name).forEach((u, r) -> {
                JsonNode ru = rowUpdate(tm, r, r, true, tm.condition, tm.condition);
                if (ru != null) {
                    rows.set(u.toString(), ru);
                }
            });
            if (rows.size() > 0) {
                out.set(name, rows);
            }
        });
        return out;
    }

    /** The updates one commit (or several merged) makes visible through this monitor. */
    ObjectNode updates(List<Database.Change> changes) {
        ObjectNode out = JsonTrees.object();
        for (Database.Change c : changes) {
            TableMonitor tm = tables.get(c.table());
            if (tm == null) {
                continue;
            }
            JsonNode ru = rowUpdate(tm, c.old(), c.neu(), false, tm.condition, tm.condition);
            if (ru != null) {
                ObjectNode rows = out.has(c.table()) ? (ObjectNode) out.get(c.table()) : out.putObject(c.table());
                rows.set(c.uuid().toString(), ru);
            }
        }
        return out;
    }

    /** What a condition change shows: rows that enter the new condition and rows that leave the old. */
    ObjectNode conditionChange(Map<String, Where> oldConditions) {
        ObjectNode out = JsonTrees.object();
        tables.forEach((name, tm) -> {
            Where before = oldConditions.getOrDefault(name, tm.condition);
            ObjectNode rows = JsonTrees.object();
            db.rows(name).forEach((u, r) -> {
                boolean was = before.matchesAny(r);
                boolean is = tm.condition.matchesAny(r);
                if (was != is) {
                    JsonNode ru = is ? rowUpdate(tm, null, r, false, tm.condition, tm.condition)
                            : rowUpdate(tm, r, null, false, before, before);
                    if (ru != null) {
                        rows.set(u.toString(), ru);
                    }
                }
            });
            if (rows.size() > 0) {
                out.set(name, rows);
            }
        });
        return out;
    }

    /** Merges a run of commits into one change per row, for monitor_cond_since. */
    static List<Database.Change> merge(List<Database.Commit> commits) {
        Map<String, Database.Change> byRow = new LinkedHashMap<>();
        for (Database.Commit commit : commits) {
            for (Database.Change c : commit.changes()) {
                String key = c.table() + "/" + c.uuid();
                Database.Change prev = byRow.get(key);
                byRow.put(key, prev == null ? c : new Database.Change(c.table(), c.uuid(), prev.old(), c.neu()));
            }
        }
        List<Database.Change> out = new ArrayList<>();
        for (Iterator<Database.Change> it = byRow.values().iterator(); it.hasNext();) {
            Database.Change c = it.next();
            if (c.old() != null || c.neu() != null) {
                out.add(c);
            }
        }
        return out;
    }

    private JsonNode rowUpdate(TableMonitor tm, Datum[] old, Datum[] neu, boolean initial, Where oldCond,
            Where newCond) {
        int type = initial ? INITIAL : old == null ? INSERT : neu == null ? DELETE : MODIFY;
        if (version > 1) {
            boolean oc = old != null && oldCond.matchesAny(old);
            boolean nc = neu != null && newCond.matchesAny(neu);
            if (!oc && !nc) {
                return null;
            }
            type = switch (type) {
                case INITIAL, INSERT -> nc ? type : 0;
                case MODIFY -> !oc ? INSERT : !nc ? DELETE : MODIFY;
                default -> oc ? DELETE : 0;
            };
        }
        if ((tm.select & type) == 0) {
            return null;
        }
        List<Integer> changed = new ArrayList<>();
        if (type == MODIFY) {
            for (int i : tm.columns) {
                if (!old[i].equals(neu[i])) {
                    changed.add(i);
                }
            }
            if (changed.isEmpty()) {
                return null;
            }
        }
        return version == 1 ? update1(tm, old, neu, type, changed) : update2(tm, old, neu, type, changed);
    }

    private static JsonNode update1(TableMonitor tm, Datum[] old, Datum[] neu, int type, List<Integer> changed) {
        ObjectNode row = JsonTrees.object();
        ObjectNode oldJson = (type & (DELETE | MODIFY)) != 0 ? row.putObject("old") : null;
        ObjectNode newJson = (type & (INITIAL | INSERT | MODIFY)) != 0 ? row.putObject("new") : null;
        for (int k = 0; k < tm.columns.size(); k++) {
            int i = tm.columns.get(k);
            if ((type & tm.columnSelect.get(k)) == 0) {
                continue;
            }
            String name = tm.table.columns().get(i).name();
            if ((type == MODIFY && changed.contains(i)) || type == DELETE) {
                oldJson.set(name, old[i].toJson());
            }
            if (newJson != null) {
                newJson.set(name, neu[i].toJson());
            }
        }
        return row;
    }

    private static JsonNode update2(TableMonitor tm, Datum[] old, Datum[] neu, int type, List<Integer> changed) {
        ObjectNode row = JsonTrees.object();
        if (type == DELETE) {
            row.putNull("delete");
            return row;
        }
        ObjectNode diff = JsonTrees.object();
        for (int k = 0; k < tm.columns.size(); k++) {
            int i = tm.columns.get(k);
            if ((type & tm.columnSelect.get(k)) == 0) {
                continue;
            }
            String name = tm.table.columns().get(i).name();
            if (type == MODIFY) {
                if (changed.contains(i)) {
                    // ovsdb_datum_diff(): a column of at most one value carries its new value.
                    Datum d = tm.table.columns().get(i).type().max() <= 1 ? neu[i] : old[i].diff(neu[i]);
                    diff.set(name, d.toJson());
                }
            } else if (!neu[i].equals(Datum.defaultOf(tm.table.columns().get(i).type()))) {
                diff.set(name, neu[i].toJson());
            }
        }
        row.set(type == INITIAL ? "initial" : type == MODIFY ? "modify" : "insert", diff);
        return row;
    }

    static UUID uuidOrNull(String s) {
        return Datum.parseUuid(s).orElse(null);
    }
}
