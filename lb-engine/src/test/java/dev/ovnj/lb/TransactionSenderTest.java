package dev.ovnj.lb;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.ovnj.ovsdb.RpcErrorException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** How the engine sorts a failed transaction: try again later, or give the spec up as failed. */
class TransactionSenderTest {

    @Test
    void aTransactionCanceledByARelayIsTriedAgainNotFailed() {
        // A relay answers "canceled" for a transaction it was forwarding when it lost its source
        // (a leader failover): marking the spec FAILED would report a transient outage as a
        // broken spec.
        assertThat(TransactionSender.classify(new RpcErrorException(TextNode.valueOf("canceled"))))
                .isEqualTo(TransactionSender.Kind.RETRIABLE);
    }

    @Test
    void otherServerErrorsAndTimeoutsAreSortedAsBefore() {
        assertThat(TransactionSender.classify(new RpcErrorException(TextNode.valueOf("unknown method"))))
                .isEqualTo(TransactionSender.Kind.PERMANENT);
        assertThat(TransactionSender.classify(new TimeoutException())).isEqualTo(TransactionSender.Kind.RETRIABLE);
    }
}
