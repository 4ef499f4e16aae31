package dev.ovnj.testkit.inmemory;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.ovnj.testkit.OvsdbServer;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Seeded random transactions from {@link ConstraintGenerator} on a schema with every kind of
 * column constraint, sent to ovsdb-server and to the in-memory server: every reply, error text
 * included, must be identical (once {@code _version} values are masked and select rows sorted).
 */
class ConstraintDifferentialIT {
    private static final int SEQUENCES = Integer.getInteger("ovnj.diff.sequences", 50);
    private static final int STEPS = Integer.getInteger("ovnj.diff.steps", 40);

    @Test
    void constraintChecksAndTheirErrorsMatchOvsdbServer() throws URISyntaxException {
        Path schema = Path.of(getClass().getResource("constraints.ovsschema").toURI());
        List<String> differences = new ArrayList<>();
        int transactions = 0;
        int violations = 0;
        int committed = 0;
        for (int seq = 0; seq < SEQUENCES; seq++) {
            long seed = 6455L * 1000 + seq;
            ConstraintGenerator gen = new ConstraintGenerator(seed);
            try (OvsdbServer process = OvsdbServer.builder().schema(schema).start();
                    InMemoryOvsdbServer memory = InMemoryOvsdbServer.builder().schema(schema).history(false).start();
                    RawClient real = new RawClient(process.port());
                    RawClient fake = new RawClient(memory.port())) {
                for (int i = 0; i < STEPS; i++) {
                    ArrayNode txn = gen.transaction();
                    String want = DifferentialIT.canonical(real.call("transact", txn.deepCopy()));
                    String got = DifferentialIT.canonical(fake.call("transact", txn.deepCopy()));
                    transactions++;
                    violations += want.contains("constraint violation") ? 1 : 0;
                    committed += want.contains("\"error\"") && !want.contains("\"details\"") ? 1 : 0;
                    if (!want.equals(got)) {
                        differences.add("seed " + seed + " step " + i + " " + txn + "\n  ovsdb-server: " + want
                                + "\n  in-memory:    " + got);
                    }
                }
            }
        }
        System.out.printf("constraint differential: %d sequences, %d transactions (%d constraint violations, %d committed),"
                + " %d differences%n", SEQUENCES, transactions, violations, committed, differences.size());
        assertThat(differences).as(String.join("\n", differences.subList(0, Math.min(5, differences.size())))).isEmpty();
        assertThat(violations).isGreaterThan(SEQUENCES * 5);
        assertThat(committed).isGreaterThan(SEQUENCES * 5);
    }
}
