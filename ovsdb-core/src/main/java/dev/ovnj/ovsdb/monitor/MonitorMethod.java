package dev.ovnj.ovsdb.monitor;

/**
 * The three monitor methods, newest first. A client tries the newest the server supports and
 * falls back when the server answers "unknown method".
 */
public enum MonitorMethod {
    /** {@code monitor_cond_since}: conditions plus resumption from a transaction id (update3). */
    MONITOR_COND_SINCE("monitor_cond_since", "update3"),
    /** {@code monitor_cond}: conditions and compact diffs (update2). */
    MONITOR_COND("monitor_cond", "update2"),
    /** {@code monitor}: RFC 7047 with full old/new rows (update). */
    MONITOR("monitor", "update");

    private final String method;
    private final String notification;

    MonitorMethod(String method, String notification) {
        this.method = method;
        this.notification = notification;
    }

    /**
     * The JSON-RPC method name.
     *
     * @return the JSON-RPC method name
     */
    public String method() {
        return method;
    }

    /**
     * The notification the server sends for this kind of monitor.
     *
     * @return the notification the server sends for this kind of monitor
     */
    public String notification() {
        return notification;
    }

    /**
     * Whether the method accepts {@code where} conditions.
     *
     * @return whether the method accepts {
     */
    public boolean conditional() {
        return this != MONITOR;
    }

    /**
     * The next older method, or null when this is the oldest.
     *
     * @return the next older method, or null when this is the oldest
     */
    public MonitorMethod fallback() {
        return switch (this) {
            case MONITOR_COND_SINCE -> MONITOR_COND;
            case MONITOR_COND -> MONITOR;
            case MONITOR -> null;
        };
    }
}
