package dev.ovnj.ovsdb.typed;

/**
 * A Java enum standing for the atoms of an enum-constrained string column; each constant knows
 * the string the database stores.
 */
public interface WireEnum {

    /**
     * Returns the atom the database stores for this constant.
     *
     * @return the wire string, e.g. {@code "tcp"}
     */
    String wireValue();
}
