package dev.ovnj.lb;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.ovnj.ovsdb.RpcErrorException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** How the engine sorts a failed transaction: try again later, or give the spec up as failed. */
class TxExecutorTest {

    @Test
    void aTransactionCanceledByARelayIsTriedAgainNotFailed() {
        // A relay answers "canceled" for a transaction it was forwarding when it lost its source
        // (a leader failover): marking the spec FAILED would report a transient outage as a
        // broken spec.
        assertThat(TxExecutor.classify(new RpcErrorException(TextNode.valueOf("canceled"))))
                .isEqualTo(TxExecutor.Kind.RETRIABLE);
    }

    @Test
    void otherServerErrorsAndTimeoutsAreSortedAsBefore() {
        assertThat(TxExecutor.classify(new RpcErrorException(TextNode.valueOf("unknown method"))))
                .isEqualTo(TxExecutor.Kind.PERMANENT);
        assertThat(TxExecutor.classify(new TimeoutException())).isEqualTo(TxExecutor.Kind.RETRIABLE);
    }
}
