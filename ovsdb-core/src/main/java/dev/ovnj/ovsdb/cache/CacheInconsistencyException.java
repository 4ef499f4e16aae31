package dev.ovnj.ovsdb.cache;

import dev.ovnj.ovsdb.OvsdbException;

/**
 * An update does not fit the cache (a modify or delete of a row the cache does not hold, an insert
 * of one it already holds). The client answers it as the OVS IDL does: drop the cache and resync.
 */
public final class CacheInconsistencyException extends OvsdbException {
    private static final long serialVersionUID = 1L;

    CacheInconsistencyException(String message) {
        super(message, null);
    }
}
