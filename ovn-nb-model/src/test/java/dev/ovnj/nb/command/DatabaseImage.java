package dev.ovnj.nb.command;

import dev.ovnj.ovsdb.cache.TableCache;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.schema.ColumnSchema;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A whole Northbound database with UUIDs replaced by the content of the rows they name, so two
 * databases built by the same commands compare equal row for row whatever UUIDs the servers chose.
 */
final class DatabaseImage implements AutoCloseable {
    private static final Pattern UUID_TEXT =
            Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    private final OvsdbClient client;
    private final Map<UUID, String> signatures = new HashMap<>();

    private DatabaseImage(OvsdbClient client) {
        this.client = client;
    }

    static DatabaseImage read(String remote) {
        return new DatabaseImage(OvsdbClient.builder().remotes(remote).build().startAndWait(Duration.ofSeconds(20)));
    }

    /** Every row of every table as its signature, sorted, by table. */
    Map<String, List<String>> rows() {
        Map<String, List<String>> out = new TreeMap<>();
        for (String table : client.schema().tables().keySet()) {
            List<String> sigs = new ArrayList<>();
            client.cache().findTable(table).ifPresent(t -> t.rows().forEach(r -> sigs.add(signature(r.uuid(), 0))));
            sigs.sort(null);
            if (!sigs.isEmpty()) {
                out.put(table, sigs);
            }
        }
        return out;
    }

    private Row find(UUID uuid) {
        for (String table : client.schema().tables().keySet()) {
            TableCache t = client.cache().findTable(table).orElse(null);
            if (t != null && t.get(uuid).isPresent()) {
                return t.get(uuid).get();
            }
        }
        return null;
    }

    private String signature(UUID uuid, int depth) {
        if (depth > 6) {
            return "...";
        }
        String known = depth == 0 ? signatures.get(uuid) : null;
        if (known != null) {
            return known;
        }
        Row row = find(uuid);
        if (row == null) {
            return "<dangling>";
        }
        TableSchema t = row.table();
        StringBuilder b = new StringBuilder(t.name()).append('{');
        for (ColumnSchema c : t.columns()) {
            if (c.isImplicit()) {
                continue;
            }
            b.append(c.name()).append('=').append(value(row.get(c.name()), depth)).append(';');
        }
        String sig = b.append('}').toString();
        if (depth == 0) {
            signatures.put(uuid, sig);
        }
        return sig;
    }

    private String value(Object v, int depth) {
        if (v instanceof UUID u) {
            return "@(" + signature(u, depth + 1) + ")";
        }
        if (v instanceof Set<?> s) {
            List<String> parts = new ArrayList<>();
            s.forEach(a -> parts.add(value(a, depth)));
            parts.sort(null);
            return parts.toString();
        }
        if (v instanceof Map<?, ?> m) {
            List<String> parts = new ArrayList<>();
            m.forEach((k, x) -> parts.add(value(k, depth) + "=" + value(x, depth)));
            parts.sort(null);
            return "{" + String.join(",", parts) + "}";
        }
        return String.valueOf(v);
    }

    /** The text with each UUID replaced by the row it names here (or {@code <unknown>}). */
    String normalize(String text) {
        Matcher m = UUID_TEXT.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            UUID u = UUID.fromString(m.group());
            String sig = find(u) == null ? "<unknown>" : "<" + Integer.toHexString(signature(u, 0).hashCode()) + ">";
            m.appendReplacement(out, Matcher.quoteReplacement(sig));
        }
        m.appendTail(out);
        return out.toString();
    }

    @Override
    public void close() {
        client.close();
    }
}
