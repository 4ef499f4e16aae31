package dev.ovnj.ovsdb.codegen;

import dev.ovnj.ovsdb.schema.AtomicType;
import dev.ovnj.ovsdb.schema.BaseType;
import dev.ovnj.ovsdb.schema.ColumnSchema;
import dev.ovnj.ovsdb.schema.ColumnType;
import java.util.Optional;

/**
 * How one column appears in its generated type: accessor, constant, Java types and enums.
 *
 * <p>Shapes: min 1 max 1 is the bare atom (a primitive for integer, real and boolean); min 0 max 1
 * is an {@link Optional}; other sets are a {@link java.util.Set}; maps a {@link java.util.Map}.
 * References are {@link java.util.UUID}s. Enum-constrained strings are nested Java enums.
 *
 * @param schema the column schema
 * @param accessor the accessor method name
 * @param constant the name of the typed column constant
 * @param keyEnum the enum of the key (or only) base type, if any
 * @param valueEnum the enum of a map's value base type, if any
 */
record ColumnBinding(ColumnSchema schema, String accessor, String constant,
                     Optional<EnumModel> keyEnum, Optional<EnumModel> valueEnum) {

    /**
     * Derives the binding of a column. The key enum is named after the column, a value enum
     * after the column plus {@code Value}; either gets an {@code Enum} suffix where it would take
     * the name of the enclosing type, which Java forbids.
     *
     * @param schema the column schema
     * @param enclosingType the simple name of the generated table type
     * @return the binding
     */
    static ColumnBinding of(ColumnSchema schema, String enclosingType) {
        String enumName = JavaNames.typeName(schema.name());
        ColumnType type = schema.type();
        return new ColumnBinding(schema, JavaNames.memberName(schema.name()), JavaNames.constantName(schema.name()),
                EnumModel.of(type.key(), distinct(enumName, enclosingType)),
                type.value().flatMap(value -> EnumModel.of(value, distinct(enumName + "Value", enclosingType))));
    }

    private static String distinct(String name, String enclosingType) {
        return name.equals(enclosingType) ? name + "Enum" : name;
    }

    /**
     * Returns the Java type of the accessor, e.g. {@code Map<String, String>}.
     *
     * @return the type as source text
     */
    String valueType() {
        ColumnType type = schema.type();
        if (type.isMap()) {
            return "Map<" + atomType(type.key(), keyEnum) + ", " + atomType(type.value().get(), valueEnum) + ">";
        }
        if (type.isOptional()) {
            return "Optional<" + atomType(type.key(), keyEnum) + ">";
        }
        if (type.isSet()) {
            return "Set<" + atomType(type.key(), keyEnum) + ">";
        }
        return switch (type.key().type()) {
            case INTEGER -> "long";
            case REAL -> "double";
            case BOOLEAN -> "boolean";
            case STRING, UUID -> atomType(type.key(), keyEnum);
        };
    }

    /**
     * Returns the type of the column constant, e.g. {@code MapColumn<String, String>}.
     *
     * @return the type as source text
     */
    String columnType() {
        ColumnType type = schema.type();
        String key = atomType(type.key(), keyEnum);
        if (type.isMap()) {
            return "MapColumn<" + key + ", " + atomType(type.value().get(), valueEnum) + ">";
        }
        return columnClass(type) + "<" + key + ">";
    }

    /**
     * Returns the initializer of the column constant.
     *
     * @return e.g. {@code ScalarColumn.of("name", AtomMapping.STRING)}
     */
    String columnInitializer() {
        ColumnType type = schema.type();
        String name = JavaStrings.literal(schema.name());
        String key = mapping(type.key(), keyEnum);
        String constraints = constrains(type) ? ", ColumnType.parse(" + JavaStrings.literal(type.toJson().toString()) + ")" : "";
        if (type.isMap()) {
            return "MapColumn.of(" + name + ", " + key + ", " + mapping(type.value().get(), valueEnum) + constraints + ")";
        }
        return columnClass(type) + ".of(" + name + ", " + key + constraints + ")";
    }

    /**
     * Whether the schema type constrains values beyond the Java type: ranges, lengths or enums of
     * its atoms, or bounds on the elements of a set or map (an optional or scalar column's bounds
     * are its Java type's). References' target tables are not constraints on the value.
     */
    private static boolean constrains(ColumnType type) {
        boolean bounded = !type.isScalar() && !type.isOptional() && (type.min() > 0 || type.max() != ColumnType.UNLIMITED);
        return bounded || constrains(type.key()) || type.value().map(ColumnBinding::constrains).orElse(false);
    }

    private static boolean constrains(BaseType base) {
        return base.enumValues().isPresent()
                || base.minInteger() != Long.MIN_VALUE || base.maxInteger() != Long.MAX_VALUE
                || base.minReal() != -Double.MAX_VALUE || base.maxReal() != Double.MAX_VALUE
                || base.minLength() != 0 || base.maxLength() != Long.MAX_VALUE;
    }

    /**
     * Returns the default a builder may omit, for scalar columns whose default atom (0, 0.0,
     * false or "") satisfies the column's constraints; enums, UUIDs and constrained values that
     * exclude the default stay mandatory so that a forgotten value fails at {@code build()}.
     *
     * @return the default value as source text, or empty if the builder must set the column
     */
    Optional<String> scalarDefault() {
        ColumnType type = schema.type();
        BaseType key = type.key();
        if (!type.isScalar() || key.enumValues().isPresent()) {
            return Optional.empty();
        }
        return switch (key.type()) {
            case INTEGER -> key.minInteger() <= 0 && 0 <= key.maxInteger() ? Optional.of("0L") : Optional.empty();
            case REAL -> key.minReal() <= 0 && 0 <= key.maxReal() ? Optional.of("0.0") : Optional.empty();
            case BOOLEAN -> Optional.of("false");
            case STRING -> key.minLength() == 0 ? Optional.of("\"\"") : Optional.empty();
            case UUID -> Optional.empty();
        };
    }

    private static String columnClass(ColumnType type) {
        if (type.isOptional()) {
            return "OptionalColumn";
        }
        return type.isSet() ? "SetColumn" : "ScalarColumn";
    }

    private static String atomType(BaseType base, Optional<EnumModel> enumModel) {
        if (enumModel.isPresent()) {
            return enumModel.get().javaName();
        }
        return boxed(base.type());
    }

    private static String boxed(AtomicType type) {
        return switch (type) {
            case INTEGER -> "Long";
            case REAL -> "Double";
            case BOOLEAN -> "Boolean";
            case STRING -> "String";
            case UUID -> "UUID";
        };
    }

    private static String mapping(BaseType base, Optional<EnumModel> enumModel) {
        return enumModel.map(e -> "AtomMapping.enumOf(" + e.javaName() + ".values())")
                .orElse("AtomMapping." + base.type().name());
    }
}
