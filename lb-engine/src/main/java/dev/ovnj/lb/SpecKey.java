package dev.ovnj.lb;

/**
 * One unit of work of the engine: a spec of an owner. A key whose spec is no longer desired stands
 * for deleting its rows.
 *
 * @param owner the owner
 * @param spec the spec's name
 */
record SpecKey(String owner, String spec) {
    @Override
    public String toString() {
        return owner + "/" + spec;
    }
}
