package dev.ovnj.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The selectors of an adoption, as the CLI's --adopt and the Service annotation pass them. */
class AdoptionTest {

    @Test
    void selectorsNameOwnersUnownedRowsAndRowsByNameOrUuid() {
        Adoption a = Adoption.parse(List.of("owner:kube-dc, unowned", "row:kube-web", "1b7c0d2e-0000-4000-8000-000000000001"));
        assertThat(a.owners()).containsExactly("kube-dc");
        assertThat(a.unowned()).isTrue();
        assertThat(a.rows()).containsExactlyInAnyOrder("kube-web", "1b7c0d2e-0000-4000-8000-000000000001");
        assertThat(a.claimOwner()).isEmpty();
        assertThat(Adoption.parse(List.of(a.toString()))).isEqualTo(a);
        assertThat(ApplyOption.adopt("kube-web")).isEqualTo(Adoption.rows("kube-web"));
    }

    @Test
    void adoptionsJoinAndKeepTheirClaimOwner() {
        Adoption joined = Adoption.owners("a").and(Adoption.unownedRows().claimingAs("shop/web"));
        assertThat(joined.owners()).isEqualTo(Set.of("a"));
        assertThat(joined.unowned()).isTrue();
        assertThat(joined.claimOwner()).isEqualTo(Optional.of("shop/web"));
        assertThat(Adoption.of(List.of(ApplyOption.ALLOW_MASS_DELETE))).isNull();
        assertThat(Adoption.of(List.of(Adoption.rows("x"), ApplyOption.ALLOW_MASS_DELETE, Adoption.owners("o"))))
                .isEqualTo(new Adoption(Set.of("x"), Set.of("o"), false));
    }

    @Test
    void anAdoptionThatNamesNothingIsRefusedNamingTheSelector() {
        assertThatThrownBy(() -> Adoption.parse(List.of("owner:"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("adoption selector \"owner:\" names nothing");
        assertThatThrownBy(() -> Adoption.parse(List.of(" , "))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("no adoption selector in");
        assertThatThrownBy(() -> new Adoption(Set.of(), Set.of(), false)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Adoption.rows("x").claimingAs(" ")).isInstanceOf(IllegalArgumentException.class);
    }

    /** What Kube-OVN writes on its load balancers (external_ids:vendor=kube-ovn, no ovnj.owner); kube-dc has Kube-OVN write them. */
    @Test
    void ownerNamesKnowKubeOvnsVendorMarkAndKubeDcByIt() {
        assertThat(Adoption.ownerNames(Optional.empty(), java.util.Map.of("vendor", "kube-ovn"))).containsExactlyInAnyOrder("kube-ovn", "kube-dc");
        assertThat(Adoption.ownerNames(Optional.empty(), java.util.Map.of("vendor", "acme"))).containsExactly("acme");
        assertThat(Adoption.ownerNames(Optional.of("team-a"), java.util.Map.of("vendor", "kube-ovn"))).containsExactly("team-a");
        assertThat(Adoption.ownerNames(Optional.empty(), java.util.Map.of())).isEmpty();
    }
}
