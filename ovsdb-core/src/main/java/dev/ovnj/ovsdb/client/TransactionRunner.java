package dev.ovnj.ovsdb.client;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.ovnj.ovsdb.Futures;
import dev.ovnj.ovsdb.tx.Transaction;
import dev.ovnj.ovsdb.tx.TransactionResult;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Sends transactions on the current session and completes their futures on the callback thread
 * after the cache holds their effects (see {@link WriteConfirmation}). A transaction in flight when
 * the connection drops is never resent, because it may have committed.
 */
final class TransactionRunner {
    private final ClientOptions options;
    private final CallbackThread callbacks;
    private final Supplier<Session> current;
    private final AtomicLong transactions = new AtomicLong();
    private final Supplier<java.util.Optional<GaveUp>> gaveUp;

    TransactionRunner(ClientOptions options, CallbackThread callbacks, Supplier<Session> current,
                      Supplier<java.util.Optional<GaveUp>> gaveUp) {
        this.options = options;
        this.callbacks = callbacks;
        this.current = current;
        this.gaveUp = gaveUp;
    }

    CompletableFuture<TransactionResult> transact(Transaction tx) {
        Session s = current.get();
        if (s == null || !s.synced) {
            java.util.Optional<GaveUp> why = gaveUp.get();
            if (why.isPresent()) {
                return CompletableFuture.failedFuture(NotConnectedException.gaveUp(why.get()));
            }
            return CompletableFuture.failedFuture(new NotConnectedException(
                    "not connected to " + options.database() + " (connecting to " + options.remotes() + ")"));
        }
        CompletableFuture<TransactionResult> result = new CompletableFuture<>();
        s.rpc.call("transact", tx.sharedParams(), options.requestTimeout()).whenComplete((json, err) -> {
            if (err != null) {
                callbacks.complete(result, null, err);
                return;
            }
            TransactionResult decoded;
            try {
                decoded = tx.decode((ArrayNode) json);
            } catch (RuntimeException e) {
                // The server refused it (or answered nonsense): nothing committed, nothing to confirm.
                callbacks.complete(result, null, e);
                return;
            }
            transactions.incrementAndGet();
            // Completion is queued on the callback thread behind the updates read before the reply
            // (ORDERED) or before the barrier's answer, so the cache holds them when it runs.
            s.confirmation.afterReply().whenComplete((ok, lost) -> callbacks.complete(result, decoded,
                    lost == null ? null : new CommitUnconfirmedException(decoded, Futures.unwrap(lost))));
        });
        return result;
    }

    long committed() {
        return transactions.get();
    }
}
