import Foundation

extension ResourceFiles {
    /// Makes the partial file for the resource `name` of transfer `transfer` in `directory` (and
    /// the folders of `name` when it is a path): `.NAME.TAG.part`, TAG from the transfer's id.
    func newPartialFile(in directory: URL, name: String, transfer: [UInt8]) throws(MultipeerError) -> any PartialResourceFile {
        let location = PartialFileLocation(name: name, in: directory)
        let tag = Hex.encode(transfer.prefix(6))
        return try createPartialFile(at: location, temporaryName: ResourceFileNames.temporaryName(for: location.fileName, tag: tag))
    }

    /// Opens the partial file `temporaryName` kept from before for the resource `name` in
    /// `directory` (``ResumeStore``), without following a symbolic link.
    func keptPartialFile(_ temporaryName: String, in directory: URL, name: String) throws(MultipeerError) -> any PartialResourceFile {
        try openPartialFile(at: PartialFileLocation(name: name, in: directory), temporaryName: temporaryName)
    }
}
