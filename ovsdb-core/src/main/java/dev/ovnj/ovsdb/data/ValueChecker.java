package dev.ovnj.ovsdb.data;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.ovnj.ovsdb.schema.AtomicType;
import dev.ovnj.ovsdb.schema.BaseType;
import dev.ovnj.ovsdb.schema.ColumnType;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Checks a Java value against its column type before it is sent, so that mistakes surface with
 * the table and column named instead of as a server-side "constraint violation".
 *
 * <p>String lengths are counted in Unicode code points: RFC 7047 speaks of "characters", and
 * ovsdb-server counts the characters of the UTF-8 string rather than its bytes.
 */
public final class ValueChecker {

    private ValueChecker() {
    }

    /**
     * Checks a column value: its Java shape, the number of elements, and every atom's class, enum
     * membership, range and length.
     *
     * @param table the table name, for the message
     * @param column the column name, for the message
     * @param type the column type
     * @param value the Java value
     * @throws ValueConstraintException naming {@code table.column} and the broken constraint
     */
    public static void check(String table, String column, ColumnType type, Object value) {
        if (value == null) {
            throw new ValueConstraintException(table, column, "value is null; an absent optional value is an empty Set");
        }
        if (type.isScalar()) {
            checkAtom(table, column, type.key(), value);
        } else if (type.isMap()) {
            if (!(value instanceof Map<?, ?> map)) {
                throw new ValueConstraintException(table, column, "expected a java.util.Map for column type " + type
                        + " but got " + ValueCodec.describe(value));
            }
            checkCount(table, column, type, map.size(), "entries");
            BaseType valueType = type.value().orElseThrow();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                checkAtom(table, column, type.key(), entry.getKey(), "map key ");
                checkAtom(table, column, valueType, entry.getValue(), "map value ");
            }
        } else {
            if (!(value instanceof Set<?> set)) {
                throw new ValueConstraintException(table, column, "expected a java.util.Set for column type " + type
                        + " but got " + ValueCodec.describe(value));
            }
            checkCount(table, column, type, set.size(), "elements");
            for (Object element : set) {
                checkAtom(table, column, type.key(), element);
            }
        }
    }

    /**
     * Checks one atom against a base type.
     *
     * @param table the table name, for the message
     * @param column the column name, for the message
     * @param base the base type
     * @param atom the Java atom
     * @throws ValueConstraintException naming {@code table.column} and the broken constraint
     */
    public static void checkAtom(String table, String column, BaseType base, Object atom) {
        checkAtom(table, column, base, atom, "");
    }

    private static void checkCount(String table, String column, ColumnType type, int count, String what) {
        if (count < type.min()) {
            throw new ValueConstraintException(table, column, "has " + count + " " + what + " but at least "
                    + type.min() + " required");
        }
        if (count > type.max()) {
            throw new ValueConstraintException(table, column, "has " + count + " " + what + " but at most "
                    + type.max() + " allowed");
        }
    }

    private static void checkAtom(String table, String column, BaseType base, Object atom, String role) {
        AtomicType type = base.type();
        boolean namedReference = type == AtomicType.UUID && atom instanceof NamedUuid;
        if (!namedReference && !type.javaType().isInstance(atom)) {
            String expected = type == AtomicType.UUID ? "UUID or NamedUuid" : type.javaType().getSimpleName();
            throw new ValueConstraintException(table, column, role + "expected " + type + " (" + expected
                    + ") but got " + ValueCodec.describe(atom));
        }
        if (base.enumValues().isPresent() && !base.enumValues().get().contains(atom)) {
            String allowed = base.enumValues().get().stream().map(String::valueOf)
                    .collect(Collectors.joining(", ", "[", "]"));
            throw new ValueConstraintException(table, column, role + quote(atom) + " is not one of " + allowed);
        }
        switch (type) {
            case INTEGER -> checkRange(table, column, role, (Long) atom, base.minInteger(), base.maxInteger());
            case REAL -> checkRange(table, column, role, (Double) atom, base.minReal(), base.maxReal());
            case STRING -> checkLength(table, column, role, (String) atom, base);
            case BOOLEAN, UUID -> {
            }
        }
    }

    private static <T extends Comparable<T>> void checkRange(String table, String column, String role, T atom,
            T min, T max) {
        if (atom.compareTo(min) < 0) {
            throw new ValueConstraintException(table, column, role + atom + " is less than minimum allowed value "
                    + min);
        }
        if (atom.compareTo(max) > 0) {
            throw new ValueConstraintException(table, column, role + atom + " is greater than maximum allowed value "
                    + max);
        }
    }

    private static void checkLength(String table, String column, String role, String atom, BaseType base) {
        long length = atom.codePointCount(0, atom.length());
        if (length < base.minLength()) {
            throw new ValueConstraintException(table, column, role + quote(atom) + " length " + length
                    + " is less than minimum allowed length " + base.minLength());
        }
        if (length > base.maxLength()) {
            throw new ValueConstraintException(table, column, role + quote(atom) + " length " + length
                    + " is greater than maximum allowed length " + base.maxLength());
        }
    }

    private static String quote(Object atom) {
        return atom instanceof String s ? JsonNodeFactory.instance.textNode(s).toString() : String.valueOf(atom);
    }
}
