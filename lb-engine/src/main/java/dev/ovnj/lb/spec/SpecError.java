package dev.ovnj.lb.spec;

/**
 * One problem with a spec, naming where it is.
 *
 * @param owner the owner the spec was declared for, or null when it was checked on its own
 *     ({@link LoadBalancerSpec.Builder#build()})
 * @param spec the spec's name
 * @param field the field, e.g. {@code vips[1].backends[0]}
 * @param message what is wrong
 */
public record SpecError(String owner, String spec, String field, String message) {
    @Override
    public String toString() {
        return (owner == null ? "" : "owner " + owner + ", ") + "spec " + spec + ", " + field + ": " + message;
    }
}
