package dev.ovnj.ovsdb.wire;

/** A value Jackson cannot serialize: its only property throws. Encoder tests put it half-way into a message. */
public final class Unrenderable {
    /**
     * Fails.
     *
     * @return never
     */
    public String getValue() {
        throw new IllegalStateException("cannot render");
    }
}
