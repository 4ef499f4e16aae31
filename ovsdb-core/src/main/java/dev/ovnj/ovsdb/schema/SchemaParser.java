package dev.ovnj.ovsdb.schema;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Parses the schema grammar of RFC 7047 section 3.2. Unknown members are ignored so that schemas
 * written for newer servers still load.
 */
final class SchemaParser {

    private static final Pattern ID = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern VERSION = Pattern.compile("[0-9]+\\.[0-9]+\\.[0-9]+");

    private SchemaParser() {
    }

    static DatabaseSchema parse(JsonNode json) {
        if (json == null || !json.isObject()) {
            throw new SchemaParseException("", "schema must be a JSON object");
        }
        String name = requiredString(json, "name", "");
        if (!ID.matcher(name).matches()) {
            throw new SchemaParseException("", "database name \"" + name + "\" is not an <id>");
        }
        Optional<String> version = optionalString(json, "version", "");
        if (version.isPresent() && !VERSION.matcher(version.get()).matches()) {
            throw new SchemaParseException("", "version \"" + version.get() + "\" is not of the form x.y.z");
        }
        Optional<String> cksum = optionalString(json, "cksum", "");
        JsonNode tablesJson = json.get("tables");
        if (tablesJson == null || !tablesJson.isObject()) {
            throw new SchemaParseException("", "\"tables\" must be an object");
        }
        Map<String, TableSchema> tables = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = tablesJson.properties().iterator(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            tables.put(entry.getKey(), parseTable(entry.getKey(), entry.getValue()));
        }
        checkReferences(tables);
        return new DatabaseSchema(name, version, cksum, tables);
    }

    private static TableSchema parseTable(String table, JsonNode json) {
        if (!ID.matcher(table).matches() || table.startsWith("_")) {
            throw new SchemaParseException(table, "table name is not an <id> or starts with \"_\"");
        }
        if (!json.isObject()) {
            throw new SchemaParseException(table, "table schema must be an object");
        }
        JsonNode columnsJson = json.get("columns");
        if (columnsJson == null || !columnsJson.isObject() || columnsJson.isEmpty()) {
            throw new SchemaParseException(table, "\"columns\" must be a non-empty object");
        }
        List<ColumnSchema> columns = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = columnsJson.properties().iterator(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            columns.add(parseColumn(table, entry.getKey(), entry.getValue()));
        }
        OptionalLong maxRows = OptionalLong.empty();
        JsonNode maxRowsJson = json.get("maxRows");
        if (maxRowsJson != null) {
            if (!maxRowsJson.isIntegralNumber() || maxRowsJson.asLong() < 1) {
                throw new SchemaParseException(table, "\"maxRows\" must be a positive integer, got " + maxRowsJson);
            }
            maxRows = OptionalLong.of(maxRowsJson.asLong());
        }
        boolean isRoot = optionalBoolean(json, "isRoot", false, table);
        List<List<String>> indexes = parseIndexes(table, json.get("indexes"), columns);
        return new TableSchema(table, columns, maxRows, isRoot, indexes);
    }

    private static List<List<String>> parseIndexes(String table, JsonNode json, List<ColumnSchema> columns) {
        if (json == null) {
            return List.of();
        }
        if (!json.isArray()) {
            throw new SchemaParseException(table, "\"indexes\" must be an array of arrays of column names");
        }
        Map<String, ColumnSchema> byName = new LinkedHashMap<>();
        columns.forEach(column -> byName.put(column.name(), column));
        List<List<String>> indexes = new ArrayList<>();
        for (JsonNode indexJson : json) {
            if (!indexJson.isArray() || indexJson.isEmpty()) {
                throw new SchemaParseException(table, "index " + indexJson + " must be a non-empty array of column names");
            }
            List<String> index = new ArrayList<>();
            for (JsonNode columnJson : indexJson) {
                String column = columnJson.textValue();
                if (column == null || !byName.containsKey(column) && !isImplicit(column)) {
                    throw new SchemaParseException(table, "index " + indexJson + " names unknown column " + columnJson);
                }
                if (byName.containsKey(column) && byName.get(column).ephemeral()) {
                    throw new SchemaParseException(table + "." + column, "ephemeral columns may not be indexed");
                }
                index.add(column);
            }
            indexes.add(index);
        }
        return indexes;
    }

    private static boolean isImplicit(String column) {
        return TableSchema.UUID_COLUMN.equals(column) || TableSchema.VERSION_COLUMN.equals(column);
    }

    private static ColumnSchema parseColumn(String table, String column, JsonNode json) {
        String where = table + "." + column;
        if (!ID.matcher(column).matches() || column.startsWith("_")) {
            throw new SchemaParseException(where, "column name is not an <id> or starts with \"_\"");
        }
        if (!json.isObject()) {
            throw new SchemaParseException(where, "column schema must be an object");
        }
        JsonNode typeJson = json.get("type");
        if (typeJson == null) {
            throw new SchemaParseException(where, "missing \"type\"");
        }
        ColumnType type = parseType(where, typeJson);
        boolean ephemeral = optionalBoolean(json, "ephemeral", false, where);
        boolean mutable = optionalBoolean(json, "mutable", true, where);
        return new ColumnSchema(column, type, ephemeral, mutable);
    }

    /** Parses one column {@code <type>}, for {@link ColumnType#parse(String)}. */
    static ColumnType parseColumnType(JsonNode json) {
        return parseType("column type", json);
    }

    private static ColumnType parseType(String where, JsonNode json) {
        if (json.isTextual()) {
            return new ColumnType(parseBaseType(where, json), Optional.empty(), 1, 1);
        }
        if (!json.isObject()) {
            throw new SchemaParseException(where, "\"type\" must be an atomic type name or an object, got " + json);
        }
        JsonNode keyJson = json.get("key");
        if (keyJson == null) {
            throw new SchemaParseException(where, "\"type\" object lacks \"key\"");
        }
        BaseType key = parseBaseType(where, keyJson);
        JsonNode valueJson = json.get("value");
        Optional<BaseType> value = valueJson == null ? Optional.empty() : Optional.of(parseBaseType(where, valueJson));
        long min = 1;
        JsonNode minJson = json.get("min");
        if (minJson != null) {
            if (!minJson.isIntegralNumber() || minJson.asLong() < 0 || minJson.asLong() > 1) {
                throw new SchemaParseException(where, "\"min\" must be 0 or 1, got " + minJson);
            }
            min = minJson.asLong();
        }
        long max = 1;
        JsonNode maxJson = json.get("max");
        if (maxJson != null) {
            if ("unlimited".equals(maxJson.textValue())) {
                max = ColumnType.UNLIMITED;
            } else if (maxJson.isIntegralNumber() && maxJson.asLong() >= 1) {
                max = maxJson.asLong();
            } else {
                throw new SchemaParseException(where, "\"max\" must be a positive integer or \"unlimited\", got " + maxJson);
            }
        }
        if (min > max) {
            throw new SchemaParseException(where, "\"min\" " + min + " exceeds \"max\" " + max);
        }
        return new ColumnType(key, value, min, max);
    }

    private static BaseType parseBaseType(String where, JsonNode json) {
        if (json.isTextual()) {
            return BaseType.of(atomicType(where, json));
        }
        if (!json.isObject()) {
            throw new SchemaParseException(where, "base type must be an atomic type name or an object, got " + json);
        }
        JsonNode typeJson = json.get("type");
        if (typeJson == null) {
            throw new SchemaParseException(where, "base type " + json + " lacks \"type\"");
        }
        AtomicType type = atomicType(where, typeJson);
        Optional<Set<Object>> enumValues = json.has("enum")
                ? Optional.of(parseEnum(where, type, json.get("enum"))) : Optional.empty();
        long minInteger = longBound(where, json, "minInteger", type, AtomicType.INTEGER, Long.MIN_VALUE);
        long maxInteger = longBound(where, json, "maxInteger", type, AtomicType.INTEGER, Long.MAX_VALUE);
        double minReal = realBound(where, json, "minReal", type, -Double.MAX_VALUE);
        double maxReal = realBound(where, json, "maxReal", type, Double.MAX_VALUE);
        long minLength = longBound(where, json, "minLength", type, AtomicType.STRING, 0);
        long maxLength = longBound(where, json, "maxLength", type, AtomicType.STRING, Long.MAX_VALUE);
        if (minInteger > maxInteger || minReal > maxReal || minLength > maxLength) {
            throw new SchemaParseException(where, "minimum exceeds maximum in " + json);
        }
        if (minLength < 0) {
            throw new SchemaParseException(where, "\"minLength\" must not be negative in " + json);
        }
        Optional<String> refTable = Optional.empty();
        RefType refType = RefType.STRONG;
        JsonNode refTableJson = json.get("refTable");
        if (refTableJson != null) {
            if (type != AtomicType.UUID || !refTableJson.isTextual()) {
                throw new SchemaParseException(where, "\"refTable\" must be a table name on a uuid type, got " + json);
            }
            refTable = Optional.of(refTableJson.textValue());
        }
        JsonNode refTypeJson = json.get("refType");
        if (refTypeJson != null) {
            if (refTable.isEmpty()) {
                throw new SchemaParseException(where, "\"refType\" requires \"refTable\" in " + json);
            }
            if ("weak".equals(refTypeJson.textValue())) {
                refType = RefType.WEAK;
            } else if (!"strong".equals(refTypeJson.textValue())) {
                throw new SchemaParseException(where, "\"refType\" must be \"strong\" or \"weak\", got " + refTypeJson);
            }
        }
        return new BaseType(type, enumValues, minInteger, maxInteger, minReal, maxReal, minLength, maxLength,
                refTable, refType);
    }

    private static AtomicType atomicType(String where, JsonNode json) {
        return AtomicType.fromJsonName(json.asText())
                .filter(type -> json.isTextual())
                .orElseThrow(() -> new SchemaParseException(where, json + " is not an atomic type"
                        + " (integer, real, boolean, string or uuid)"));
    }

    private static Set<Object> parseEnum(String where, AtomicType type, JsonNode json) {
        List<JsonNode> atoms = new ArrayList<>();
        if (json.isArray() && json.size() == 2 && "set".equals(json.get(0).textValue()) && json.get(1).isArray()) {
            json.get(1).forEach(atoms::add);
        } else {
            atoms.add(json);
        }
        Set<Object> values = new LinkedHashSet<>();
        for (JsonNode atom : atoms) {
            values.add(type.decode(atom).orElseThrow(() -> new SchemaParseException(where,
                    "enum value " + atom + " is not a " + type)));
        }
        return values;
    }

    private static long longBound(String where, JsonNode json, String member, AtomicType actual,
            AtomicType required, long absent) {
        JsonNode bound = json.get(member);
        if (bound == null) {
            return absent;
        }
        if (actual != required) {
            throw new SchemaParseException(where, "\"" + member + "\" is only allowed for " + required + ", not " + actual);
        }
        if (!bound.isIntegralNumber() || !bound.canConvertToLong()) {
            throw new SchemaParseException(where, "\"" + member + "\" must be an integer, got " + bound);
        }
        return bound.longValue();
    }

    private static double realBound(String where, JsonNode json, String member, AtomicType actual, double absent) {
        JsonNode bound = json.get(member);
        if (bound == null) {
            return absent;
        }
        if (actual != AtomicType.REAL) {
            throw new SchemaParseException(where, "\"" + member + "\" is only allowed for real, not " + actual);
        }
        if (!bound.isNumber()) {
            throw new SchemaParseException(where, "\"" + member + "\" must be a number, got " + bound);
        }
        return bound.doubleValue();
    }

    private static void checkReferences(Map<String, TableSchema> tables) {
        for (TableSchema table : tables.values()) {
            for (ColumnSchema column : table.columns()) {
                List<BaseType> bases = new ArrayList<>();
                bases.add(column.type().key());
                column.type().value().ifPresent(bases::add);
                for (BaseType base : bases) {
                    base.refTable().filter(ref -> !tables.containsKey(ref)).ifPresent(ref -> {
                        throw new SchemaParseException(table.name() + "." + column.name(),
                                "\"refTable\" names unknown table " + ref);
                    });
                }
            }
        }
    }

    private static String requiredString(JsonNode json, String member, String where) {
        return optionalString(json, member, where)
                .orElseThrow(() -> new SchemaParseException(where, "missing string member \"" + member + "\""));
    }

    private static Optional<String> optionalString(JsonNode json, String member, String where) {
        JsonNode value = json.get(member);
        if (value == null) {
            return Optional.empty();
        }
        if (!value.isTextual()) {
            throw new SchemaParseException(where, "\"" + member + "\" must be a string, got " + value);
        }
        return Optional.of(value.textValue());
    }

    private static boolean optionalBoolean(JsonNode json, String member, boolean absent, String where) {
        JsonNode value = json.get(member);
        if (value == null) {
            return absent;
        }
        if (!value.isBoolean()) {
            throw new SchemaParseException(where, "\"" + member + "\" must be a boolean, got " + value);
        }
        return value.booleanValue();
    }
}
