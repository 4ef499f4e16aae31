/**
 * The Northbound command layer with ovn-nbctl's semantics: {@link dev.ovnj.nb.command.NorthboundCommands}
 * composes commands ({@code ls-add}, {@code lsp-add}, {@code lr-nat-add}, {@code acl-add}, the
 * database commands, ...) into one transaction, reading the client's cache; {@link
 * dev.ovnj.nb.command.NbctlCommandLine} runs ovn-nbctl command lines through it.
 */
package dev.ovnj.nb.command;
