import Multipeer
