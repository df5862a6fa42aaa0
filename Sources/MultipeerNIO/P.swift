import NIOCore; import NIOPosix; import Multipeer
