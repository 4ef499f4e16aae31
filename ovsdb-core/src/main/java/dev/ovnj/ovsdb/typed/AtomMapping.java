package dev.ovnj.ovsdb.typed;

import dev.ovnj.ovsdb.schema.AtomicType;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Function;

/**
 * Converts between the Java type of a typed column's atoms and the untyped atom of
 * {@link dev.ovnj.ovsdb.data.ValueCodec} ({@link Long}, {@link Double}, {@link Boolean},
 * {@link String} or {@link UUID}).
 *
 * @param <T> the typed atom
 */
public final class AtomMapping<T> {

    /** Integers, typed and untyped as {@link Long}. */
    public static final AtomMapping<Long> INTEGER = identity(AtomicType.INTEGER, Long.class);
    /** Reals, typed and untyped as {@link Double}. */
    public static final AtomMapping<Double> REAL = identity(AtomicType.REAL, Double.class);
    /** Booleans, typed and untyped as {@link Boolean}. */
    public static final AtomMapping<Boolean> BOOLEAN = identity(AtomicType.BOOLEAN, Boolean.class);
    /** Strings, typed and untyped as {@link String}. */
    public static final AtomMapping<String> STRING = identity(AtomicType.STRING, String.class);
    /** UUIDs, including references to other rows, typed and untyped as {@link UUID}. */
    public static final AtomMapping<UUID> UUID = identity(AtomicType.UUID, java.util.UUID.class);

    private final AtomicType type;
    private final Function<T, Object> toAtom;
    private final Function<Object, T> fromAtom;

    private AtomMapping(AtomicType type, Function<T, Object> toAtom, Function<Object, T> fromAtom) {
        this.type = type;
        this.toAtom = toAtom;
        this.fromAtom = fromAtom;
    }

    private static <T> AtomMapping<T> identity(AtomicType atomicType, Class<T> type) {
        return new AtomMapping<>(atomicType, atom -> atom, atom -> type.cast(atom));
    }

    /**
     * Returns the mapping of an enum-constrained string column onto a Java enum. It takes the
     * constants rather than the class so that it needs no reflection.
     *
     * @param constants every constant of the enum, i.e. {@code E.values()}
     * @param <E> the enum type
     * @return the mapping, which fails on a string that names no constant
     */
    @SafeVarargs
    public static <E extends Enum<E> & WireEnum> AtomMapping<E> enumOf(E... constants) {
        if (constants.length == 0) {
            throw new IllegalArgumentException("an enum mapping needs at least one constant");
        }
        // Copied element by element: handing the varargs array itself on is what javac flags.
        java.util.List<E> known = new java.util.ArrayList<>(constants.length);
        for (E c : constants) {
            known.add(c);
        }
        return new AtomMapping<>(AtomicType.STRING, WireEnum::wireValue, atom -> {
            for (E constant : known) {
                if (constant.wireValue().equals(atom)) {
                    return constant;
                }
            }
            throw new IllegalArgumentException("\"" + atom + "\" is not a value of "
                    + known.get(0).getDeclaringClass().getSimpleName());
        });
    }

    /**
     * Returns the OVSDB atomic type of the untyped atoms, against which a server's schema is
     * checked.
     *
     * @return e.g. {@link AtomicType#STRING} for an enum mapping
     */
    public AtomicType type() {
        return type;
    }

    /**
     * Converts a typed atom to its untyped form.
     *
     * @param atom the typed atom
     * @return the untyped atom
     */
    public Object toAtom(T atom) {
        return toAtom.apply(Objects.requireNonNull(atom, "atom"));
    }

    /**
     * Converts an untyped atom to its typed form.
     *
     * @param atom the untyped atom
     * @return the typed atom
     * @throws ClassCastException if the atom has another Java type
     * @throws IllegalArgumentException if an enum mapping does not know the string
     */
    public T fromAtom(Object atom) {
        return fromAtom.apply(Objects.requireNonNull(atom, "atom"));
    }
}
