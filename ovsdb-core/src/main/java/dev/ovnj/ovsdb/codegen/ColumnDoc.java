package dev.ovnj.ovsdb.codegen;

import dev.ovnj.ovsdb.schema.AtomicType;
import dev.ovnj.ovsdb.schema.BaseType;
import dev.ovnj.ovsdb.schema.ColumnType;
import dev.ovnj.ovsdb.schema.RefType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Writes the Javadoc of generated types and accessors from what the schema says. An
 * {@code .ovsschema} carries no prose (the OVN documentation lives in {@code ovn-nb.xml}, which
 * becomes the ovn-nb(5) manual), so the comment states the type and its constraints, points to
 * the manual page, and adds a {@code doc} member where a schema has one.
 */
final class ColumnDoc {

    // Manual pages of the well-known databases; other schemas are referred to by name.
    private static final Map<String, String> MANUALS = Map.of(
            "OVN_Northbound", "ovn-nb(5)",
            "OVN_Southbound", "ovn-sb(5)",
            "Open_vSwitch", "ovs-vswitchd.conf.db(5)",
            "_Server", "ovsdb-server(5)");

    private ColumnDoc() {
    }

    /**
     * Names where a database's tables and columns are documented.
     *
     * @param database the database name
     * @return e.g. {@code "ovn-nb(5)"}
     */
    static String manual(String database) {
        return MANUALS.getOrDefault(database, "the documentation of the " + database + " schema");
    }

    /**
     * Returns the Javadoc lines of a column accessor.
     *
     * @param column the column binding
     * @param table the table name
     * @param database the database name
     * @param doc the column's {@code doc} member, if the schema has one
     * @return the escaped lines, ending with the {@code @return} tag
     */
    static List<String> accessor(ColumnBinding column, String table, String database, Optional<String> doc) {
        List<String> lines = new ArrayList<>();
        lines.add("Column " + JavaStrings.code(column.schema().name()) + " of " + JavaStrings.code(table) + ".");
        doc.ifPresent(text -> {
            lines.add("");
            lines.add("<p>" + JavaStrings.doc(text));
        });
        lines.add("");
        lines.add("<p>Schema type: " + shape(column.schema().type()) + ".");
        if (!column.schema().mutable()) {
            lines.add("The column is immutable: only an insert sets it.");
        }
        if (column.schema().ephemeral()) {
            lines.add("The column is ephemeral: the server need not persist it.");
        }
        lines.add("See the " + JavaStrings.code(table) + " table in " + JavaStrings.doc(manual(database)) + ".");
        lines.add("");
        lines.add("@return " + returns(column));
        return lines;
    }

    private static String returns(ColumnBinding column) {
        ColumnType type = column.schema().type();
        if (type.isMap()) {
            return "the entries, empty unless set";
        }
        if (type.isOptional()) {
            return "the value, empty unless set";
        }
        if (type.isSet()) {
            return "the elements, empty unless set";
        }
        return column.scalarDefault()
                .map(value -> "the value; the builder defaults it to " + JavaStrings.code(value))
                .orElse("the value, which the builder requires");
    }

    private static String shape(ColumnType type) {
        if (type.isScalar()) {
            return "exactly one " + base(type.key());
        }
        if (type.isOptional()) {
            return "at most one " + base(type.key());
        }
        String bounds = type.min() + " to " + (type.max() == ColumnType.UNLIMITED ? "any number of" : type.max());
        if (type.isMap()) {
            return "a map of " + bounds + " entries from " + base(type.key()) + " to " + base(type.value().get());
        }
        return "a set of " + bounds + " elements, each " + base(type.key());
    }

    private static String base(BaseType base) {
        if (base.refTable().isPresent()) {
            String strength = base.refType() == RefType.WEAK
                    ? "weak: the server drops it when that row is deleted"
                    : "strong: that row cannot be deleted while referenced";
            return "a reference to a " + JavaStrings.code(base.refTable().get()) + " row (" + strength + ")";
        }
        StringBuilder text = new StringBuilder(base.type().jsonName());
        if (base.enumValues().isPresent()) {
            text.append(" among ").append(base.enumValues().get().stream()
                    .map(atom -> JavaStrings.code(atom instanceof String s ? JavaStrings.literal(s) : atom.toString()))
                    .collect(Collectors.joining(", ")));
        }
        if (base.type() == AtomicType.INTEGER) {
            range(text, base.minInteger() != Long.MIN_VALUE, base.minInteger(),
                    base.maxInteger() != Long.MAX_VALUE, base.maxInteger());
        } else if (base.type() == AtomicType.REAL) {
            range(text, base.minReal() != -Double.MAX_VALUE, base.minReal(),
                    base.maxReal() != Double.MAX_VALUE, base.maxReal());
        } else if (base.type() == AtomicType.STRING && (base.minLength() != 0 || base.maxLength() != Long.MAX_VALUE)) {
            text.append(" of ").append(base.minLength()).append(" to ")
                    .append(base.maxLength() == Long.MAX_VALUE ? "any number of" : base.maxLength())
                    .append(" characters");
        }
        return text.toString();
    }

    private static void range(StringBuilder text, boolean hasMin, Object min, boolean hasMax, Object max) {
        if (hasMin && hasMax) {
            text.append(" from ").append(min).append(" to ").append(max);
        } else if (hasMin) {
            text.append(" of at least ").append(min);
        } else if (hasMax) {
            text.append(" of at most ").append(max);
        }
    }
}
