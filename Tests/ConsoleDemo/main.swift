// A small program that exercises GuessnumTerminal as a user would; the terminal tests drive it
// through pipes and through tmux. Not shipped.
//
//   ConsoleDemo [--ticks] [--history PATH] [--prompt TEXT]
//
// Echoes each line as "you said: …"; "/prompt TEXT" changes the prompt; "/secret" reads the
// next line hidden and says only how long it was; "/quit" or end of
// input ends it. With --ticks a
// background thread prints "tick N" every 300 ms.
import Foundation

let options = DemoOptions(CommandLine.arguments.dropFirst())
await Demo.run(options)
