package dev.ovnj.lb;

import dev.ovnj.ovsdb.client.Remote;
import java.util.Optional;

/**
 * The engine's Northbound client stopped connecting for good: every remote refused it for a
 * reason that retrying cannot cure (e.g. it serves {@code OVN_Southbound}, not
 * {@code OVN_Northbound}; see {@link dev.ovnj.ovsdb.client.OvsdbClient#gaveUp()}). A request then
 * fails at once with this instead of waiting for its timeout; nothing is written until the
 * application builds a client with the right remotes (and an engine on it).
 */
public final class DatabaseGaveUpException extends EngineException {
    private static final long serialVersionUID = 1L;
    private final transient Remote remote;
    private final String reason;

    DatabaseGaveUpException(String owner, dev.ovnj.ovsdb.client.GaveUp gaveUp) {
        super("owner " + owner + ": " + gaveUp.describe(), gaveUp.cause());
        this.remote = gaveUp.remote().orElse(null);
        this.reason = gaveUp.reason();
    }

    /**
     * The remote whose refusal ended the attempts, when known.
     *
     * @return the remote
     */
    public Optional<Remote> remote() {
        return Optional.ofNullable(remote);
    }

    /**
     * Why the client gave up, in words, as the server's refusal says it.
     *
     * @return the reason
     */
    public String reason() {
        return reason;
    }
}
