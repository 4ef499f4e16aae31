package dev.ovnj.nb.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.ovsdb.schema.AtomicType;
import dev.ovnj.ovsdb.schema.BaseType;
import dev.ovnj.ovsdb.schema.ColumnType;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The parts of ovn-nbctl's syntax that need no server: argument parsing, value syntax, address forms. */
class NbctlSyntaxTest {
    private static final ColumnType STRINGS = new ColumnType(BaseType.of(AtomicType.STRING), Optional.empty(), 0,
            ColumnType.UNLIMITED);
    private static final ColumnType STRING_MAP = new ColumnType(BaseType.of(AtomicType.STRING),
            Optional.of(BaseType.of(AtomicType.STRING)), 0, ColumnType.UNLIMITED);

    @Test
    void globalOptionsThenCommandsSeparatedByDashes() {
        NbctlCommandLine.Invocation inv = NbctlCommandLine.parse(List.of("--db=tcp:127.0.0.1:6641", "--timeout", "5", "--bare", "--may-exist",
                "ls-add", "sw0", "--", "--if-exists", "lsp-del", "p1", "--", "--columns=name", "list", "Logical_Switch"));
        assertThat(inv.db()).isEqualTo("tcp:127.0.0.1:6641");
        assertThat(inv.timeout().toSeconds()).isEqualTo(5);
        assertThat(inv.output().bare()).isTrue();
        assertThat(inv.commands()).extracting(NbctlCommandLine.Command::name).containsExactly("ls-add", "lsp-del", "list");
        assertThat(inv.commands().get(0).options()).containsOnlyKeys("--may-exist");
        assertThat(inv.commands().get(1).options()).containsOnlyKeys("--if-exists");
        assertThat(inv.commands().get(2).options()).containsEntry("--columns", "name");
    }

    @Test
    void syntaxErrorsAreOvnNbctls() {
        assertThatThrownBy(() -> NbctlCommandLine.parse(List.of("bogus-cmd"))).hasMessage("unknown command 'bogus-cmd'; use --help for help");
        assertThatThrownBy(() -> NbctlCommandLine.parse(List.of())).hasMessage("missing command name (use --help for help)");
        assertThatThrownBy(() -> NbctlCommandLine.parse(List.of("ls-add", "a", "b"))).hasMessage("'ls-add' command takes at most 1 arguments");
        assertThatThrownBy(() -> NbctlCommandLine.parse(List.of("lsp-add"))).hasMessage("'lsp-add' command requires at least 2 arguments");
        assertThatThrownBy(() -> NbctlCommandLine.parse(List.of("--foo", "ls-add"))).hasMessage("unrecognized option '--foo'");
        assertThatThrownBy(() -> NbctlCommandLine.parse(List.of("--may-exist", "ls-list")))
                .hasMessage("'ls-list' command has no '--may-exist' option");
        assertThatThrownBy(() -> NbctlCommandLine.parse(List.of("ls-add", "a", "--", "--foo", "ls-list")))
                .hasMessage("'ls-list' command has no '--foo' option");
    }

    @Test
    void valuesPrintAsOvnNbctlPrintsThem() {
        assertThat(DatumSyntax.toString(STRINGS, Set.of("router", "00:00:00:00:00:01 10.0.0.1")))
                .isEqualTo("[\"00:00:00:00:00:01 10.0.0.1\", router]");
        assertThat(DatumSyntax.toString(STRING_MAP, Map.of("a", "b:c", "x", "sw0"))).isEqualTo("{a=\"b:c\", x=sw0}");
        assertThat(DatumSyntax.toBare(Map.of("a", "b:c"))).isEqualTo("a=b:c");
        assertThat(DatumSyntax.atomToString("true")).isEqualTo("\"true\"");
        assertThat(DatumSyntax.atomToString("")).isEqualTo("\"\"");
        assertThat(DatumSyntax.atomToString("lsp-1.a_b")).isEqualTo("lsp-1.a_b");
    }

    @Test
    void valuesParseAsOvnNbctlParsesThem() {
        assertThat(DatumSyntax.parseDatum(STRINGS, "[a, \"b c\"]", null)).isEqualTo(Set.of("a", "b c"));
        assertThat(DatumSyntax.parseDatum(STRING_MAP, "{k=v, \"x y\"=z}", null)).isEqualTo(Map.of("k", "v", "x y", "z"));
        assertThat(DatumSyntax.parseDatum(STRINGS, "", null)).isEqualTo(Set.of());
        assertThatThrownBy(() -> DatumSyntax.parseDatum(STRINGS, "00:00:00:00:00:01", null))
                .hasMessage("00:00:00:00:00:01: unexpected \":\" parsing set of strings");
        assertThat(DatumSyntax.parseAtom(BaseType.of(AtomicType.STRING), "b:c", null)).isEqualTo("b:c");
        assertThatThrownBy(() -> DatumSyntax.parseAtom(BaseType.of(AtomicType.INTEGER), "x", null))
                .hasMessage("\"x\" is not a valid integer");
    }

    @Test
    void prefixesNormalizeAsOvnNbctlNormalizesThem() {
        assertThat(Addresses.prefix("10.0.1.7/24")).isEqualTo("10.0.1.0/24");
        assertThat(Addresses.prefix("10.0.1.7/32")).isEqualTo("10.0.1.7");
        assertThat(Addresses.prefix("10.0.1.7/255.255.255.0")).isEqualTo("10.0.1.0/24");
        assertThat(Addresses.prefix("2001:db8:1::7/64")).isEqualTo("2001:db8:1::/64");
        assertThat(Addresses.prefix("10.0.1.7/33")).isNull();
        assertThat(Addresses.prefix("10.0.1.256")).isNull();
        assertThat(Addresses.inNetworks(List.of("172.16.0.1/24"), "172.16.0.50")).isTrue();
        assertThat(Addresses.inNetworks(List.of("172.16.0.1/24"), "172.16.1.50")).isFalse();
    }

    @Test
    void vipsNormalizeAndRefuseAsLbAddDoes() {
        LbVip v6 = LbVip.parse("[fd00::1]:80", "[fd00::2]:8080,[fd00::3]:8080");
        assertThat(v6.key()).isEqualTo("[fd00::1]:80");
        assertThat(v6.backends()).isEqualTo("[fd00::2]:8080,[fd00::3]:8080");
        assertThat(LbVip.parse("30.0.0.12", "192.168.10.10,192.168.10.11").port()).isNull();
        assertThatThrownBy(() -> LbVip.parse("30.0.0.14:80", "192.168.10.10"))
                .hasMessage("192.168.10.10: should be an IP address and a port number with : as a separator.");
        assertThatThrownBy(() -> LbVip.parse("bogus", "192.168.10.10"))
                .hasMessage("bogus: should be an IP address (or an IP address and a port number with : as a separator).");
    }
}
