package dev.ovnj.nb.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.ovsdb.data.ValueConstraintException;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The schema's constraints are checked when a typed row is built, naming table, column, value and constraint. */
class TypedRowConstraintsTest {

    private static ImmutableAcl.Builder acl() {
        return Acl.builder().direction(Acl.Direction.FROM_LPORT).action(Acl.Action.DROP).match("ip4").priority(1000);
    }

    @Test
    void aPriorityAboveTheSchemasMaximumFailsAtBuild() {
        assertThatThrownBy(() -> acl().priority(70000).build())
                .isInstanceOfSatisfying(ValueConstraintException.class, e -> {
                    assertThat(e.table()).isEqualTo("ACL");
                    assertThat(e.column()).isEqualTo("priority");
                })
                .hasMessage("ACL.priority: 70000 is greater than maximum allowed value 32767");
    }

    @Test
    void aNegativePriorityFailsAtBuild() {
        assertThatThrownBy(() -> acl().priority(-1).build())
                .hasMessage("ACL.priority: -1 is less than minimum allowed value 0");
    }

    @Test
    void aStringLongerThanTheSchemaAllowsFailsAtBuild() {
        String name = "n".repeat(64);
        assertThatThrownBy(() -> acl().name(name).build())
                .isInstanceOf(ValueConstraintException.class)
                .hasMessage("ACL.name: \"" + name + "\" length 64 is greater than maximum allowed length 63");
    }

    @Test
    void anIntegerEnumRangeIsCheckedToo() {
        assertThatThrownBy(() -> acl().tier(4).build()).hasMessage("ACL.tier: 4 is greater than maximum allowed value 3");
    }

    @Test
    void aRowWithinTheConstraintsBuildsAndCarriesItsValues() {
        Acl built = acl().priority(32767).name("n".repeat(63)).tier(3).build();

        assertThat(built.priority()).isEqualTo(32767);
        assertThat(built.name()).contains("n".repeat(63));
    }

    @Test
    void theColumnsCarryTheirSchemaConstraintsAndUnconstrainedOnesNone() {
        assertThat(Acl.PRIORITY.schemaType()).hasValueSatisfying(t -> assertThat(t.key().maxInteger()).isEqualTo(32767));
        assertThat(Acl.MATCH.schemaType()).isEmpty();
        assertThat(Acl.EXTERNAL_IDS.schemaType()).isEmpty();
    }

    @Test
    void aRowCarryingAUuidAsReadFromAServerIsNotCheckedAtBuild() {
        // A newer server's schema may admit more than this model's: reading must not fail. Such a
        // row is checked when written (Transaction.Builder.add), see TypedEdgesIT.
        Acl read = acl().uuid(UUID.randomUUID()).priority(70000).build();

        assertThat(read.priority()).isEqualTo(70000);
    }
}
